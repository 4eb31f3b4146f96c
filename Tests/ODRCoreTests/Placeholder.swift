import Testing
@testable import ODRCore
@Test func placeholder() { #expect(Bool(true)) }
