import Foundation
import Testing
import ThrumCoreHaptics

/// The classes are `NSObject`s and the protocols refine `NSObjectProtocol`, as Apple's.
@Suite("Apple's bases")
struct ObjectBasesTests {
    @Test("the classes are NSObjects and the protocols NSObjectProtocol's, as Objective-C-era code needs")
    func objectBases() async throws {
        let (count, found) = try ObjectiveCStyle.arrayOfValues()
        #expect(count == 6 && found)
        let board = VirtualBoard()
        let names = try await board.onMain { () -> [String] in
            let player = try board.engine.makeAdvancedPlayer(with: FeedbackManager.tap())
            let capability = CHHapticEngine.capabilitiesForHardware()
            let attributes = try capability.attributes(forDynamicParameter: .hapticIntensityControl)
            #expect(ObjectiveCStyle.sameObject(player, player) && !ObjectiveCStyle.sameObject(player, capability))
            #expect(ObjectiveCStyle.sameObject(attributes, attributes))
            player.completionHandler = { _ in }
            let handler: CHHapticAdvancedPatternPlayerCompletionHandler = player.completionHandler
            handler(nil)
            return [ObjectiveCStyle.describe(board.engine), ObjectiveCStyle.describe(try FeedbackManager.tap())]
        }
        #expect(names == ["CHHapticEngine", "CHHapticPattern"])
    }

    @Test("try CHHapticEngine() makes an engine for the default device, as Apple's init() throws; so does a subclass")
    func throwingInit() throws {
        let engine = try ObjectiveCStyle.defaultEngine()
        let game = try GameHapticsEngine()
        #expect(ObjectiveCStyle.describe(engine) == "CHHapticEngine" && !engine.isEqual(game))
        #expect(game.locality == engine.locality)
    }
}
