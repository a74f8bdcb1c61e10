import Testing

@Suite("thrum stream")
struct StreamCommandTests {
    @Test("applies each good line, names each bad one by number, and ends with the input")
    func streamsFromStandardInput() async throws {
        let run = try await runThrumProcess(
            ["stream", "--device", "sim"], input: "0.2 0.1\n0.6, 0.5\nloud\n1 1\n1.5 0\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("3 updates applied"), "\(run.stdout)")
        #expect(run.stderr.contains("line 3: expected `intensity sharpness`"), "\(run.stderr)")
        #expect(run.stderr.contains("line 5:"), "\(run.stderr)")
    }
}
