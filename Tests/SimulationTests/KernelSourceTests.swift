import Foundation
import Testing

/// Issue 37: the kernel is a tiny event loop (SimPy's model); what a platform does after a
/// delay (Play's confirmation dialog) is a timer the driver sets, not a case of the kernel.
@Suite("The kernel's source")
struct KernelSourceTests {
    @Test(
        """
        Simulator.swift names no platform behaviour: its queue holds download moments, the driver's timers and \
        samples
        """
    )
    func kernelKnowsNoPlatform() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/Simulation/Simulator.swift")
        let code = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
        #expect(code.contains("case timer(ScenarioDriver.Timer)"))
        for word in ["ellular", "onfirm", "Wifi", "WiFi", "play", "Play", "evictor", "platform."] {
            #expect(!code.contains(word), "Simulator.swift names '\(word)' outside comments")
        }
    }
}
