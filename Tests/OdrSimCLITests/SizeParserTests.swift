import OdrSimCLI
import Testing

@Suite struct SizeParserTests {
    private func bytes(_ text: String) -> Int64? {
        if case .success(let value) = SizeParser.parse(text) { return value }
        return nil
    }

    @Test func acceptsBytesAndDecimalAndBinaryUnits() {
        #expect(bytes("202976972") == 202_976_972)
        #expect(bytes("512MB") == 512_000_000)
        #expect(bytes("64MiB") == 67_108_864)
        #expect(bytes("1.5GB") == 1_500_000_000)
        #expect(bytes("2 GiB") == 2_147_483_648)
        #expect(bytes("10kb") == 10_000)
        #expect(bytes("0.5KiB") == 512)
        #expect(bytes("7B") == 7)
    }

    @Test func rejectsWhatIsNotASize() {
        #expect(bytes("") == nil)
        #expect(bytes("MB") == nil)
        #expect(bytes("12XB") == nil)
        #expect(bytes("1.2.3GB") == nil)
        #expect(bytes("1.5") == nil, "a fraction of a byte")
        #expect(bytes("1.0000001KB") == nil, "not a whole number of bytes")
        #expect(bytes("99999999999TB") == nil, "overflows Int64")
        #expect(bytes("-5MB") == nil)
        if case .failure(let error) = SizeParser.parse("12XB") {
            #expect(error.description.hasPrefix("invalid size '12XB': unknown unit 'XB'"))
        }
    }
}
