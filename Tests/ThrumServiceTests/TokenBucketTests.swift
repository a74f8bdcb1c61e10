import Testing

@testable import ThrumService

@Suite struct TokenBucketTests {
    private func admitted(_ bucket: inout TokenBucket, count: Int, at now: Double) -> Int {
        var admitted = 0
        for _ in 0..<count where bucket.take(at: now) { admitted += 1 }
        return admitted
    }

    @Test func aBurstThenTheRate() {
        var bucket = TokenBucket(rate: 10, burst: 5)
        #expect(admitted(&bucket, count: 8, at: 0) == 5)
        // 0.25 s later: 2.5 tokens came back, two whole ones.
        #expect(admitted(&bucket, count: 5, at: 0.25) == 2)
        // Time never runs backwards for the bucket: an earlier stamp adds nothing.
        #expect(admitted(&bucket, count: 1, at: 0.1) == 0)
    }
}
