import TestSupport
import Testing
import TraceReplay

@Suite struct TraceReaderTests {
    private func records(_ text: String, chunk: Int = 1 << 20) throws -> [TraceRecord] {
        try withTrace(text) { path in
            let reader = try TraceReader(path: path, chunkSize: chunk)
            var result: [TraceRecord] = []
            while let record = try reader.next() { result.append(record) }
            return result
        }
    }

    private func failure(_ text: String) -> String? {
        do {
            _ = try records(text)
            return nil
        } catch {
            return String(describing: error)
        }
    }

    @Test func readsColumnsInHeaderOrder() throws {
        let list = try records("size,obj_id,time,extra\n512,7,1.5,x\r\n\n 4096 , \"8\" ,2,y\n")
        #expect(list.map(\.object) == [7, 8])
        #expect(list.map(\.size) == [512, 4096])
        #expect(list.map(\.time) == [1.5, 2])
        // The blank line still counts as a line.
        #expect(list.map(\.line) == [2, 4])
    }

    @Test func readsLinesAcrossChunkBoundariesAndWithoutFinalNewline() throws {
        var text = "time,obj_id,size\n"
        for i in 0..<500 { text += "\(i),\(i * 31),\(100 + i)\n" }
        text += "500,9,1"
        // A 64-byte chunk splits almost every line, and grows for none.
        let list = try records(text, chunk: 64)
        #expect(list.count == 501)
        #expect(list[123].object == 123 * 31 && list[123].size == 223 && list[123].line == 125)
        #expect(list.last?.object == 9 && list.last?.size == 1)
    }

    @Test func mapsAppsInOrderOfAppearance() throws {
        let (reader, apps) = try withTrace("app,time,obj_id,size\nmail,0,1,10\ngame,1,2,10\nmail,2,3,10\n") { path in
            let reader = try TraceReader(path: path)
            var apps: [Int32] = []
            while let record = try reader.next() { apps.append(record.app) }
            return (reader, apps)
        }
        #expect(apps == [0, 1, 0])
        #expect(reader.appNames == ["mail", "game"])
    }

    @Test func namesTheLineOfAMalformedValue() {
        let file = "time,obj_id,size\n1,2,3\n1,2,3\n4,5,x\n"
        let message = failure(file)
        #expect(message?.hasSuffix("trace.csv:4: size 'x' is not a non-negative integer") == true)
        #expect(failure("time,obj_id,size\n1,2,-3\n")?.hasSuffix(":2: size '-3' is negative") == true)
        #expect(
            failure("time,obj_id,size\n1,abc,3\n")?.hasSuffix(":2: obj_id 'abc' is not a non-negative integer") == true)
        #expect(failure("time,obj_id,size\nsoon,1,3\n")?.hasSuffix(":2: time 'soon' is not a number") == true)
        #expect(failure("time,obj_id,size\n1,2\n")?.hasSuffix(":2: found 2 fields, but the header names 3") == true)
        #expect(failure("time,obj_id,size\n1,99999999999999999999999,3\n")?.contains(":2: obj_id") == true)
    }

    @Test func rejectsABadHeaderOrAnEmptyFile() {
        #expect(failure("time,object,size\n1,2,3\n")?.contains("trace.csv:1: header has no 'obj_id' column") == true)
        #expect(failure("")?.hasSuffix("trace.csv: empty file; expected a header row 'time,obj_id,size'") == true)
        #expect(failure("time,size,time,obj_id\n")?.contains("names column 'time' twice") == true)
        do {
            _ = try TraceReader(path: "/nonexistent/missing.csv")
            Issue.record("opening a missing file should fail")
        } catch {
            #expect(String(describing: error).hasPrefix("/nonexistent/missing.csv: cannot open"))
        }
    }
}
