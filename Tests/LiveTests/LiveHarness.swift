import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// What the live tests share: the built executables, a folder of a given size (a tmpfs when
/// running as root, stopped by the test that started it), CSV rows, and a plain HTTP client
/// of its own (the server is checked by something other than odr-sim's own client).
enum LiveHarness {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A debug executable `swift build --build-tests` built (`odr-sim`, `odr-sim-live`).
    static func binary(_ name: String) -> URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [
            bundle.appendingPathComponent(name), repository.appendingPathComponent(".build/debug/\(name)"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[1]
    }

    static func fixture(_ name: String) -> String {
        repository.appendingPathComponent("Tests/LiveTests/Fixtures/\(name)").path
    }

    typealias Output = ProcessRun.Output

    /// Runs `executable` with `arguments` from the repository's root, to its end.
    static func run(_ executable: URL, _ arguments: [String]) throws -> Output {
        try ProcessRun.run(executable, arguments, in: repository)
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("odr-live-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A folder of `bytes` bytes: a tmpfs of that size when this process may mount one (root),
    /// else a plain folder (`isSized` false). ``stop()`` unmounts what it mounted.
    final class SizedFolder {
        let path: String
        let isSized: Bool

        init(bytes: Int64) throws {
            path = try LiveHarness.temporaryDirectory().path
            isSized =
                geteuid() == 0
                && (try? LiveHarness.run(
                    URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", path]
                ).status) == 0
        }

        func stop() {
            if isSized { _ = try? LiveHarness.run(URL(fileURLWithPath: "/bin/umount"), [path]) }
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// A CSV file's rows as dictionaries by header (odr-sim's files quote no field here).
    static func rows(_ path: String) throws -> [[String: String]] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        guard let header = lines.first?.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        else { return [] }
        return lines.dropFirst().map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return Dictionary(uniqueKeysWithValues: zip(header, fields))
        }
    }

    /// A response: status, headers (lower-case names) and body.
    struct Response {
        let status: Int
        let headers: [String: String]
        let body: [UInt8]
    }

    /// A `GET` (or `method`) of `path` on 127.0.0.1:`port` with `headers`, over a plain socket.
    static func get(port: Int, _ path: String, method: String = "GET", headers: [String: String] = [:]) throws
        -> Response
    {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            data += buffer[0..<n]
        }
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = (0...max(0, data.count - 4)).first(where: { Array(data[$0..<$0 + 4]) == separator }) else {
            throw POSIXError(.EBADMSG)
        }
        let lines = String(decoding: data[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ")[1]) ?? 0
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Response(status: status, headers: fields, body: Array(data[(end + 4)...]))
    }
}
