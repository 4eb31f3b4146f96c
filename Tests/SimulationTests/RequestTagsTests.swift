import ODRCore
import Testing

@testable import Simulation

/// A request's tags: one stored inline, several as a list; either way the same tags in the
/// same order, and equal lists are equal values whichever way they were made.
@Suite("Request tags")
struct RequestTagsTests {
    let a = TagID(rawValue: 3), b = TagID(rawValue: 7)

    @Test("One tag: inline, the same value as a one-element list or literal")
    func oneTag() {
        let inline = RequestTags(single: a)
        #expect(inline.single == a)
        #expect(Array(inline) == [a])
        #expect(inline == RequestTags([a]))
        #expect(inline == [a])
        #expect(inline.hashValue == RequestTags([a]).hashValue)
        #expect(inline != [b])
    }

    @Test("Several tags (or none) keep their order and have no single tag")
    func severalTags() {
        let both = RequestTags([b, a])
        #expect(both.single == nil)
        #expect(Array(both) == [b, a])
        #expect(both != [a, b])
        #expect(both.count == 2)
        let none = RequestTags([])
        #expect(none.isEmpty)
        #expect(none.single == nil)
        #expect(none != [a])
    }
}
