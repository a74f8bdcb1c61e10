/// Sending half of the reliable channel (PROTOCOL.md §6.1–6.2): cumulative acknowledgements, at most `window`
/// frames in flight (the smaller of the peer's credit and 127). Towards a peer that keeps nothing after a gap,
/// go-back-N: everything unacknowledged is resent on NAK or duplicate acknowledgements. Once the peer's SACKs
/// show that it holds frames, only the frames they show missing are resent (selective repeat).
struct ReliableSender: Sendable {
    struct Outgoing: Sendable {
        var seq: UInt8
        var type: UInt8
        var payload: [UInt8]
        var lastSent: MonotonicInstant?
        var transmissions = 0
        var needsSending = true
        /// Which transmissions (counted over the session) first and last carried this frame.
        var firstTransmission: UInt64 = 0
        var lastTransmission: UInt64 = 0
        /// Timer expiries on this frame, as the oldest in flight, with the peer silent since it left.
        var silentExpiries = 0
        /// The peer's SACK named it held: it is never sent again (a receiver keeps what it reported).
        var held = false
    }

    private(set) var queued: [Outgoing] = []
    private var queueHead = 0
    private(set) var inFlight: [Outgoing] = []
    private(set) var nextSeq: UInt8 = 1
    var peerWindow: Int = 1
    var timer: RetransmissionTimer
    private var lastNak: (ack: UInt8, at: MonotonicInstant)?
    private(set) var retransmissions = 0
    private var progressWithoutSample = 0
    /// The estimate rests on an ambiguous sample only (a frame sent more than once) or on a PING's round
    /// trip. Under steady loss every later frame may be sent more than once too, and Karn's rule then never
    /// corrects it: shorter control round trips replace it until a clean sample does.
    private var estimateIsAmbiguous = false
    private var recoverySince: MonotonicInstant?
    /// The last acknowledgement that made progress: the timer runs from there (see `deadline`).
    private var lastProgress: MonotonicInstant?
    private var lastHeard: MonotonicInstant?
    private(set) var timeouts = 0
    private(set) var nakResends = 0
    private(set) var duplicateAckResends = 0
    private(set) var selectiveResends = 0
    /// The peer holds frames after a gap: a SACK arrived in this session. NAKs and duplicate acknowledgements
    /// then resend nothing (the SACKs say exactly what is missing), and an acknowledgement that jumps over
    /// frames sent before a timeout no longer shows the timeout spurious (the peer may have held them).
    private(set) var peerHolds = false
    /// A selective resend went out: a PING behind it would show at once if it was lost too.
    var wantsProbe = false
    var transmissions: UInt64 { transmissionCount }
    /// What the line does to frames, for the owner's choice of payload size.
    private(set) var payloadSize: AdaptivePayloadSize
    /// Transmissions so far; the earliest one the latest progress acknowledgement can have answered (the
    /// first copy of the newest frame it covered); bare acks since then that acknowledged nothing.
    private var transmissionCount: UInt64 = 0
    private var progressTransmission: UInt64 = 0
    /// The latest transmission that resent a frame (see `isCleanSample`).
    private var lastResendTransmission: UInt64 = 0
    private var duplicateAcks = 0
    /// The largest payload the round-trip estimate has seen go out (see `RetransmissionTimer.stretch`).
    private var timedPayload = 0

    init(timer: RetransmissionTimer, maxPayload: Int = FrameLimits.absoluteMaxPayload) {
        self.timer = timer
        self.payloadSize = AdaptivePayloadSize(maximum: maxPayload)
    }

    var queuedCount: Int { queued.count - queueHead }
    var pendingCount: Int { queuedCount + inFlight.count }

    mutating func enqueue(type: UInt8, payload: [UInt8]) {
        queued.append(Outgoing(seq: 0, type: type, payload: payload))
    }

    /// A round trip measured outside the reliable channel (a PING answered by its PONG of `payload` bytes,
    /// PROTOCOL.md §6.2). While there is no estimate, or it rests on an ambiguous sample only and this is
    /// shorter, the estimate starts again from it, stretched to the largest frame sent so far; it stays
    /// ambiguous until a clean sample replaces it. Before, a lossy start waited out the initial 500 ms on
    /// every lost frame while PONGs showed a round trip of a few ms.
    mutating func noteControlRoundTrip(_ roundTrip: Duration, payload: Int) {
        timer.noteRoundTrip(roundTrip)
        if let srtt = timer.smoothedRTT, !estimateIsAmbiguous || roundTrip >= srtt { return }
        timer.restart(from: roundTrip)
        estimateIsAmbiguous = true
        if timedPayload > payload {
            let overhead = Double(AdaptivePayloadSize.frameOverhead)
            timer.stretch(by: (Double(timedPayload) + overhead) / (Double(payload) + overhead))
        } else {
            timedPayload = payload
        }
    }

    /// What the frame that carried an acknowledgement was sent in answer to: what its arrival can time.
    enum AckCarrier: Equatable {
        /// An ACK or a reliable frame: sent as soon as the peer had what it acknowledges.
        case prompt
        /// A PONG, sent when its PING arrived; the PING left at `pingSent`, after the frames the PONG
        /// acknowledges if their own ACK was lost, so it times them from then on only.
        /// `afterTransmission`: the transmissions counted when the PING left.
        case pong(pingSent: MonotonicInstant, afterTransmission: UInt64? = nil)
        /// Anything else (INFO, an ERROR on the control channel, a real-time frame): times nothing.
        case untimed
    }

    /// Applies the ack, window and NAK flag carried by any frame of the current epoch. `bareAck`: the frame is
    /// an ACK or a SACK. `held`: a SACK's bitmap (nil for any other frame).
    mutating func handle(
        ack: UInt8, window: UInt8, nak: Bool, bareAck: Bool = false, carrier: AckCarrier = .prompt,
        held: [UInt8]? = nil, at now: MonotonicInstant
    ) {
        lastHeard = now
        peerWindow = Int(min(window, 127))
        if let held { markHeld(held, after: ack) }
        let lastAcked = nextSeq &- UInt8(truncatingIfNeeded: inFlight.count) &- 1
        let advanced = SequenceSpace.distance(from: lastAcked, to: ack)
        let progressed = advanced >= 1 && advanced <= inFlight.count
        if progressed {
            let newest = inFlight[advanced - 1]
            if isCleanSample(newest, carrier: carrier), let sent = newest.lastSent {
                let timedFrom = if case .pong(let pingSent, _) = carrier { max(sent, pingSent) } else { sent }
                let sample = now.duration(since: timedFrom)
                // The first clean sample replaces an estimate that rests on an ambiguous or control sample.
                if estimateIsAmbiguous { timer.restart(from: sample) } else { timer.record(sample: sample) }
                progressWithoutSample = 0
                estimateIsAmbiguous = false
            } else if timer.smoothedRTT == nil, let sent = newest.lastSent {
                // No clean sample yet (heavy loss from the start): the time since the last transmission is
                // ambiguous but better than nothing; clean samples, or a control round trip, replace it.
                timer.record(sample: now.duration(since: sent))
                estimateIsAmbiguous = true
            } else {
                // Karn: no sample from a retransmitted frame. Under heavy loss every frame gets retransmitted
                // and no sample ever comes, so after two acknowledgements of progress without one, relax the
                // back-off (halving, not resetting, so a queue of resends does not time out spuriously).
                progressWithoutSample += 1
                if progressWithoutSample >= 2 {
                    progressWithoutSample = 0
                    timer.relaxBackOff()
                }
            }
            for frame in inFlight[..<advanced] { payloadSize.recordDelivered(payload: frame.payload.count) }
            progressTransmission = max(progressTransmission, newest.firstTransmission)
            duplicateAcks = 0
            let spurious = recoverySince.map { timeoutWasSpurious(at: $0, acknowledgedFrames: advanced, now: now) }
            inFlight.removeFirst(advanced)
            lastProgress = now
            if let since = recoverySince, let spurious {
                // First progress after a timeout. If it answers the resend, the frames sent before the timeout
                // were dropped by the receiver (it keeps no frames after a gap): go back and resend them.
                recoverySince = nil
                if !spurious {
                    for index in inFlight.indices
                    where (inFlight[index].lastSent ?? now) < since && !inFlight[index].held {
                        inFlight[index].needsSending = true
                    }
                } else {
                    timer.backOff()
                }
            }
        }
        if held != nil { resendHoles() }
        if peerHolds, case .pong(_, let pingAfter?) = carrier, let oldest = inFlight.first, !oldest.needsSending,
            oldest.lastTransmission <= pingAfter, ack == nextSeq &- UInt8(truncatingIfNeeded: inFlight.count) &- 1
        {
            // The PING left after the oldest frame's latest copy and its PONG does not acknowledge it: the line
            // keeps order, so that copy was lost. Resent now rather than after a timeout.
            inFlight[0].needsSending = true
            selectiveResends += 1
            payloadSize.recordLost(payload: oldest.payload.count)
            wantsProbe = true
        }
        let stalled = !inFlight.isEmpty && ack == nextSeq &- UInt8(truncatingIfNeeded: inFlight.count) &- 1
        if bareAck, stalled, !progressed, !peerHolds {
            duplicateAcks += 1
            if !nak { detectLostResend() }
        }
        if nak, stalled, !peerHolds {
            let holdOff = timer.smoothedRTT ?? timer.timeout
            if lastNak == nil || lastNak!.ack != ack || now.duration(since: lastNak!.at) >= holdOff {
                lastNak = (ack, now)
                nakResends += 1
                if let oldest = inFlight.first { payloadSize.recordLost(payload: oldest.payload.count) }
                markAllForResend()
            }
        }
    }

    /// Karn's rule, widened to every way an acknowledgement can answer something else: the newest frame it
    /// covers times a round trip only if that frame was sent once, no frame was resent after it (the
    /// acknowledgement may answer the resend: a lost ACK, then a timeout's resend of an older frame, would
    /// time the timeout), and it came on a frame sent in answer to something (`AckCarrier`; a PONG times
    /// from its PING, or a lost ACK would make it time the ping interval).
    private func isCleanSample(_ newest: Outgoing, carrier: AckCarrier) -> Bool {
        carrier != .untimed && newest.transmissions == 1 && newest.firstTransmission > lastResendTransmission
    }

    /// Whether the first acknowledgement of progress after the timeout at `since` answers a copy sent before
    /// the timeout (the timeout was spurious: the frame was late, not lost). Called before the
    /// `acknowledgedFrames` it covers leave `inFlight`.
    /// - It covers a frame besides the oldest whose last copy left before the timeout: a receiver that keeps
    ///   nothing after a gap had the oldest's earlier copy (the line keeps order). Not when the peer holds
    ///   frames: it may have held those until the resend filled the gap.
    /// - It came sooner after the timeout than half the fastest round trip seen: too soon to answer the resend.
    private func timeoutWasSpurious(at since: MonotonicInstant, acknowledgedFrames: Int, now: MonotonicInstant) -> Bool
    {
        if !peerHolds, inFlight[1..<acknowledgedFrames].contains(where: { ($0.lastSent ?? since) < since }) {
            return true
        }
        guard let fastest = timer.fastestRoundTrip else { return false }
        return now.duration(since: since) < fastest / 2
    }

    /// The peer answers every reliable frame it receives, in the order they were sent, so duplicate acks for
    /// frames that left before the oldest frame's latest copy number at most the transmissions in between.
    /// One more answers a frame sent after that copy: the copy was lost and the peer dropped what followed.
    /// The receiver sends one NAK per gap; this catches a lost resend a round trip later, where the timer
    /// would wait a whole timeout. Lost acknowledgements only make the count come up short.
    private mutating func detectLostResend() {
        guard let oldest = inFlight.first, !oldest.needsSending else { return }
        let sentBefore =
            Int(truncatingIfNeeded: oldest.lastTransmission) - Int(truncatingIfNeeded: progressTransmission) - 1
        guard sentBefore >= 0, duplicateAcks > sentBefore + 1 else { return }
        duplicateAckResends += 1
        payloadSize.recordLost(payload: oldest.payload.count)
        markAllForResend()
    }

    /// A SACK's bitmap, relative to its `ack`: bit i names the frame `ack + 2 + i`.
    private mutating func markHeld(_ bitmap: [UInt8], after ack: UInt8) {
        peerHolds = true
        for index in inFlight.indices where !inFlight[index].held {
            let bit = SequenceSpace.distance(from: ack, to: inFlight[index].seq) - 2
            guard bit >= 0, bit / 8 < bitmap.count else { continue }
            if bitmap[bit / 8] & (1 << (bit % 8)) != 0 { inFlight[index].held = true }
        }
    }

    /// Selective repeat: a frame the peer does not hold whose latest copy left before the first copy of a frame
    /// it does hold was lost (the line keeps order, and the peer holds whatever arrives after a gap). Each copy
    /// is judged once: after the resend, only a frame first sent later can show that it died too.
    private mutating func resendHoles() {
        guard let newestHeld = inFlight.lazy.filter(\.held).map(\.firstTransmission).max() else { return }
        for index in inFlight.indices
        where !inFlight[index].held && !inFlight[index].needsSending && inFlight[index].lastTransmission < newestHeld {
            inFlight[index].needsSending = true
            selectiveResends += 1
            payloadSize.recordLost(payload: inFlight[index].payload.count)
            wantsProbe = true
        }
    }

    private mutating func markAllForResend() {
        for index in inFlight.indices where !inFlight[index].needsSending && !inFlight[index].held {
            inFlight[index].needsSending = true
        }
    }

    /// When the oldest unacknowledged frame times out: RTO after it was last sent or, if later, after the last
    /// acknowledgement that made progress (RFC 6298 §5.3). Frames handed over together leave the line one after
    /// another; timed from the hand-over, the last of a go-back resend would time out while still on its way.
    var deadline: MonotonicInstant? {
        guard let oldest = inFlight.first, let sent = oldest.lastSent, !oldest.needsSending else { return nil }
        return max(sent, lastProgress ?? sent) + timer.timeout
    }

    /// Handles an expired timer; returns how often it expired on the oldest frame with the peer silent since
    /// the frame left (on a dead line: its transmissions), so the caller can give up. Expiries while the
    /// peer keeps talking do not count: the line works, however lossy.
    mutating func handleTimeout(at now: MonotonicInstant) -> Int? {
        guard let deadline, now >= deadline else { return nil }
        timeouts += 1
        // Back off only when the peer has gone silent since the frame left. If its frames keep coming, the
        // line works and the frame was lost at random: waiting longer would only slow the transfer down.
        if let sent = inFlight.first?.lastSent, lastHeard.map({ $0 <= sent }) ?? true {
            timer.backOff()
            inFlight[0].silentExpiries += 1
        }
        // Resend only the oldest: if the timeout was spurious this costs one frame, not a window (a
        // window resent into a slow line's queue makes the next timeout spurious too). Once frames die
        // fast (§6.5) the timeout is most likely real and the frames small: resend them all, so that the
        // others' duplicate acknowledgements report it at once if the oldest dies again.
        payloadSize.recordLost(payload: inFlight[0].payload.count)
        if payloadSize.isShrunk { markAllForResend() } else { inFlight[0].needsSending = true }
        recoverySince = now
        return inFlight[0].silentExpiries
    }

    /// Frames to put on the wire now: retransmissions first, then new frames the window allows.
    mutating func framesToSend(at now: MonotonicInstant) -> [Outgoing] {
        var out: [Outgoing] = []
        for index in inFlight.indices where inFlight[index].needsSending {
            if inFlight[index].transmissions > 0 { retransmissions += 1 }
            inFlight[index].needsSending = false
            inFlight[index].transmissions += 1
            inFlight[index].lastSent = now
            transmissionCount += 1
            lastResendTransmission = transmissionCount
            inFlight[index].lastTransmission = transmissionCount
            out.append(inFlight[index])
        }
        while queueHead < queued.count && inFlight.count < peerWindow {
            var next = queued[queueHead]
            if next.payload.count > timedPayload {
                let overhead = Double(AdaptivePayloadSize.frameOverhead)
                timer.stretch(by: (Double(next.payload.count) + overhead) / (Double(timedPayload) + overhead))
                timedPayload = next.payload.count
            }
            queueHead += 1
            next.seq = nextSeq
            nextSeq &+= 1
            next.needsSending = false
            next.transmissions = 1
            next.lastSent = now
            transmissionCount += 1
            next.firstTransmission = transmissionCount
            next.lastTransmission = transmissionCount
            inFlight.append(next)
            out.append(next)
        }
        if queueHead > 64 && queueHead * 2 > queued.count {
            queued.removeFirst(queueHead)
            queueHead = 0
        }
        return out
    }
}

/// Receiving half of the reliable channel (PROTOCOL.md §6.3): delivers frames in order; frames that arrive
/// after a gap, within the window, are held (up to `capacity`) and delivered once the gap fills.
struct ReliableReceiver: Sendable {
    enum Verdict { case deliver, duplicate, held, outOfOrder }

    private(set) var lastDelivered: UInt8 = 0
    var ackPending = false
    var nakPending = false
    /// A SACK is owed: a reliable frame arrived while frames are held.
    var sackPending = false
    private var nakSentForGap = false
    /// Frames that may be held after a gap (the stated window less one); 0 holds nothing.
    let capacity: Int
    private var held: [UInt8: Frame] = [:]

    init(capacity: Int = 0) { self.capacity = max(0, capacity) }

    var heldCount: Int { held.count }

    mutating func accept(_ frame: Frame) -> Verdict {
        let seq = frame.header.seq
        let expected = lastDelivered &+ 1
        ackPending = true  // tell the sender where we are, whatever it sent
        defer { sackPending = sackPending || !held.isEmpty }
        if seq == expected {
            lastDelivered = seq
            nakSentForGap = false
            return .deliver
        }
        if SequenceSpace.distance(from: seq, to: lastDelivered) < 128 { return .duplicate }
        if !nakSentForGap {
            nakSentForGap = true
            nakPending = true
        }
        let ahead = SequenceSpace.distance(from: lastDelivered, to: seq)
        guard ahead <= capacity + 1 else { return .outOfOrder }
        if held[seq] != nil { return .duplicate }
        held[seq] = frame
        return .held
    }

    /// The held frame that follows the last delivered one, now in order: removed and counted as delivered.
    mutating func takeNextHeld() -> Frame? {
        guard let frame = held.removeValue(forKey: lastDelivered &+ 1) else { return nil }
        lastDelivered &+= 1
        return frame
    }

    /// SACK's bitmap: bit i set when the frame `lastDelivered + 2 + i` is held; no trailing zero bytes.
    var heldBitmap: [UInt8] {
        var bitmap: [UInt8] = []
        for seq in held.keys {
            let bit = SequenceSpace.distance(from: lastDelivered, to: seq) - 2
            while bitmap.count <= bit / 8 { bitmap.append(0) }
            bitmap[bit / 8] |= 1 << (bit % 8)
        }
        return bitmap
    }
}
