import ODRPolicies
import Testing

@testable import ODRCore

/// An app's life cycle, as AppPhase.swift's table gives it: every phase against every event,
/// and the device's public calls refusing exactly what the table refuses.
@Suite("App phases")
struct AppPhaseTests {
    static let phases: [AppPhase] = [
        .absent, .installing(launchPending: false), .installing(launchPending: true),
        .installed(running: false), .installed(running: true),
    ]

    @Test("every phase and event moves where the table says, and nowhere else")
    func table() {
        typealias E = AppPhase.Event
        // The table, row by row (nil: the event does nothing).
        let expected: [AppPhase: [E: AppPhase]] = [
            .absent: [.install: .installing(launchPending: false)],
            .installing(launchPending: false): [
                .installFailed: .absent, .initialPacksStored: .installed(running: false),
                .launch: .installing(launchPending: true), .terminate: .installing(launchPending: false),
                .uninstall: .absent,
            ],
            .installing(launchPending: true): [
                .installFailed: .absent, .initialPacksStored: .installed(running: true),
                .launch: .installing(launchPending: true), .terminate: .installing(launchPending: false),
                .uninstall: .absent,
            ],
            .installed(running: false): [
                .launch: .installed(running: true), .terminate: .installed(running: false), .uninstall: .absent,
                .update: .installing(launchPending: false),
            ],
            .installed(running: true): [.terminate: .installed(running: false), .uninstall: .absent],
        ]
        let events: [E] = [.install, .installFailed, .initialPacksStored, .launch, .terminate, .uninstall, .update]
        for phase in Self.phases {
            for event in events {
                #expect(phase.after(event) == expected[phase]?[event], "\(phase) on \(event)")
            }
        }
    }

    @Test("the device: a launch during the install waits for it; calls the table refuses return false")
    func device() throws {
        let catalog = try Catalog(
            resources: [Resource(name: "core", size: 10, tags: ["core"])],
            tagSettings: ["core": TagSettings(category: .initialInstall)])
        let device = ODRDevice(capacity: 100, policy: ApplePolicy())
        let app = device.addApp(name: "game", catalog: catalog)
        #expect(!device.launch(app, at: 0))
        #expect(!device.terminate(app, at: 0))
        #expect(device.install(app, at: 0))
        #expect(!device.install(app, at: 0))
        #expect(device.launch(app, at: 1))
        #expect(device.state.apps[0].phase == .installing(launchPending: true))
        device.receive(10, for: device.pack(0, of: app), at: 2)
        #expect(device.state.apps[0].phase == .installed(running: true))
        #expect(!device.launch(app, at: 3))
        #expect(device.terminate(app, at: 3))
        #expect(device.state.apps[0].phase == .installed(running: false))
        #expect(device.uninstall(app, at: 4))
        #expect(!device.uninstall(app, at: 4))
        #expect(device.state.apps[0].phase == .absent)
    }
}
