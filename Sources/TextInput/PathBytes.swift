import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A file name as the file system holds it: bytes, which need not be UTF-8 (a Latin-1 name
/// from an old archive, a name another tool made). odr-sim's paths are Strings; a byte of a
/// name that does not decode is carried in the String as one private-use scalar,
/// U+10FE80–U+10FEFF, the way Python's `surrogateescape` carries it in a surrogate (which a
/// Swift String cannot hold). So the name opens and writes the file it names:
///
/// - ``arguments()`` decodes the command line so, and ``entries(of:)`` a folder's names;
/// - every call into the file system takes its path through ``withCString(_:_:)``, which
///   gives the bytes back, or through the helpers here built on it;
/// - ``InputText/oneLine(_:)`` shows such a byte as `\xNN`, in messages and in files.
///
/// A UTF-8 name that itself holds one of those 128 scalars would read back as another name:
/// it is refused (``decode(_:)`` is nil), the one name this cannot carry.
public enum PathBytes {
    /// The scalar that carries byte 0x80 + k is `first + k`.
    static let first: UInt32 = 0x10FE80

    /// The byte a carried scalar stands for, or nil for any other scalar.
    public static func carried(_ scalar: Unicode.Scalar) -> UInt8? {
        scalar.value >= first && scalar.value < first + 0x80 ? UInt8(scalar.value - first + 0x80) : nil
    }

    /// `bytes` as a path String: UTF-8 decoded, each other byte carried; nil when the UTF-8
    /// holds a carrying scalar itself (the name would not read back as the same bytes).
    public static func decode(_ bytes: some Collection<UInt8>) -> String? {
        var text = String.UnicodeScalarView()
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var rest = Array(bytes)[...]
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                if carried(scalar) != nil { return nil }
                text.append(scalar)
                rest = rest.dropFirst(encoded.count)
            case .error(let length):
                for byte in rest.prefix(length) { text.append(Unicode.Scalar(first + UInt32(byte) - 0x80)!) }
                rest = rest.dropFirst(length)
            case .emptyInput:
                return String(text)
            }
        }
    }

    /// `text` with each carried byte shown as `\\xNN` and nothing else changed: what odr-sim
    /// prints on its standard output and error, where a path may appear.
    public static func shown(_ text: String) -> String {
        guard text.utf8.contains(0xF4) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if let byte = carried(scalar) {
                result.append(contentsOf: "\\x\(String(byte, radix: 16))".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// The bytes `path` stands for (no terminating NUL).
    public static func bytes(_ path: String) -> [UInt8] {
        // Carried scalars are in plane 16, whose UTF-8 starts with 0xF4: most paths have none.
        guard path.utf8.contains(0xF4) else { return Array(path.utf8) }
        var result: [UInt8] = []
        for scalar in path.unicodeScalars {
            if let byte = carried(scalar) { result.append(byte) } else { result += Array(String(scalar).utf8) }
        }
        return result
    }

    /// Calls `body` with `path` as the file system's C string.
    public static func withCString<R>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        guard path.utf8.contains(0xF4) else { return try path.withCString(body) }
        return try (bytes(path).map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
            try body($0.baseAddress!)
        }
    }

    /// The process's arguments after its own name, decoded as paths; or the refusal of one
    /// that this cannot carry.
    public static func arguments() -> Result<[String], RefusedArgument> {
        var result: [String] = []
        for k in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[k] else { continue }
            let raw = UnsafeRawBufferPointer(start: argument, count: strlen(argument))
            guard let text = decode(raw) else { return .failure(RefusedArgument(bytes: Array(raw))) }
            result.append(text)
        }
        return .success(result)
    }

    /// An argument whose UTF-8 holds one of the scalars that carry bytes.
    public struct RefusedArgument: Error, CustomStringConvertible {
        public let bytes: [UInt8]
        /// The argument with the carrying scalars it holds as `\u{…}` (they are not bytes here).
        var shownScalars: String {
            String(decoding: bytes, as: UTF8.self).unicodeScalars.map { scalar in
                carried(scalar) != nil ? "\\u{\(String(scalar.value, radix: 16))}" : InputText.oneLine(String(scalar))
            }.joined()
        }
        public var description: String {
            """
            argument '\(shownScalars)' holds a character of U+10FE80–U+10FEFF, which odr-sim \
            keeps for the bytes of names that are not UTF-8: rename the file
            """
        }
    }

    // MARK: The file system, by bytes

    /// What is at `path` (lstat when `link` is true: a symbolic link itself), or nil.
    public static func status(_ path: String, link: Bool = false) -> stat? {
        var result = stat()
        let code = withCString(path) { link ? lstat($0, &result) : stat($0, &result) }
        return code == 0 ? result : nil
    }

    /// Whether anything is at `path` (following links).
    public static func exists(_ path: String) -> Bool { status(path) != nil }

    /// Whether `path` is a folder (following links).
    public static func isFolder(_ path: String) -> Bool {
        status(path).map { $0.st_mode & S_IFMT == S_IFDIR } ?? false
    }

    /// The names in folder `path` (without `.` and `..`), in no order; nil when it cannot be read.
    /// `hidden`: only the names that begin with a dot. Performance: the others are passed over
    /// as bytes, never made into text, so that a look for temporary files beside a report in a
    /// folder of thousands (`/tmp`) costs the listing alone.
    public static func entries(of path: String, hidden: Bool = false) -> [String]? {
        guard let folder = withCString(path, { opendir($0) }) else { return nil }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            if hidden && entry.pointee.d_name.0 != 46 { continue }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix(while: { $0 != 0 }))
            }
            if name == [46] || name == [46, 46] { continue }
            // A name this cannot carry is shown, never used: no file of it is ever odr-sim's.
            names.append(decode(name) ?? InputText.oneLine(bytes: name))
        }
        return names
    }

    /// The whole file at `path`, or nil.
    public static func contents(_ path: String) -> Data? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        return try? handle.readToEnd() ?? Data()
    }

    /// Opens `path` with `flags` (and `mode` when creating); the descriptor, or -1 with errno.
    public static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0o644) -> Int32 {
        withCString(path) { Glibc.open($0, flags | O_CLOEXEC, mode) }
    }

    /// Writes `data` to a new file at `path` (failing when one is there).
    public static func create(_ path: String, _ data: Data) throws(PathFailure) {
        try create(path) { (file) throws(PathFailure) in try file.write(data) }
    }

    /// Writes a new file at `path` (failing when one is there) from the pieces `body` writes to
    /// it, in order, so that a large file is never held whole; a failed write or close (a full
    /// disk on the last write-back) throws.
    public static func create(_ path: String, pieces body: (NewFile) throws(PathFailure) -> Void) throws(PathFailure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL)
        guard descriptor >= 0 else { throw PathFailure(path: path, errno: errno) }
        let file = NewFile(path: path, handle: FileHandle(fileDescriptor: descriptor, closeOnDealloc: true))
        try body(file)
        do { try file.handle.close() } catch { throw PathFailure(path: path, errno: EIO) }
    }

    /// A file ``create(_:pieces:)`` is writing.
    public struct NewFile {
        let path: String
        let handle: FileHandle

        /// Appends `data`.
        public func write(_ data: Data) throws(PathFailure) {
            do { try handle.write(contentsOf: data) } catch { throw PathFailure(path: path, errno: EIO) }
        }
    }

    /// Makes folder `path` and the folders above it that are missing.
    public static func makeFolders(_ path: String) throws(PathFailure) {
        if isFolder(path) { return }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try makeFolders(parent) }
        guard withCString(path, { mkdir($0, 0o755) }) == 0 || errno == EEXIST && isFolder(path) else {
            throw PathFailure(path: path, errno: errno)
        }
    }

    /// Removes the file, link or folder (with what it holds) at `path`; quiet when nothing is there.
    public static func remove(_ path: String) {
        guard let found = status(path, link: true) else { return }
        if found.st_mode & S_IFMT == S_IFDIR {
            for name in entries(of: path) ?? [] { remove(path + "/" + name) }
            _ = withCString(path) { rmdir($0) }
        } else {
            _ = withCString(path) { unlink($0) }
        }
    }

    /// Renames `from` to `to` (rename(2): atomic within one file system).
    public static func rename(_ from: String, _ to: String) throws(PathFailure) {
        let code = withCString(from) { old in withCString(to) { Glibc.rename(old, $0) } }
        guard code == 0 else { throw PathFailure(path: to, errno: errno) }
    }

    /// `path` with its symbolic links and `..` resolved (realpath(3)), or nil.
    public static func resolved(_ path: String) -> String? {
        guard let real = withCString(path, { realpath($0, nil) }) else { return nil }
        defer { free(real) }
        return decode(UnsafeRawBufferPointer(start: real, count: strlen(real)))
    }

    /// The target of symbolic link `path`, or nil.
    public static func linkTarget(_ path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = withCString(path) { name in
            buffer.withUnsafeMutableBytes {
                readlink(name, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count)
            }
        }
        return count > 0 ? decode(buffer.prefix(count)) : nil
    }

    /// The process's working folder.
    public static func workingFolder() -> String {
        guard let here = getcwd(nil, 0) else { return FileManager.default.currentDirectoryPath }
        defer { free(here) }
        return decode(UnsafeRawBufferPointer(start: here, count: strlen(here)))
            ?? FileManager.default.currentDirectoryPath
    }
}

/// A file-system call on a path that failed, with the system's reason.
public struct PathFailure: LocalizedError, CustomStringConvertible {
    public let path: String
    public let errno: Int32
    public init(path: String, errno: Int32) {
        self.path = path
        self.errno = errno
    }
    /// The system's reason (`No space left on device`): the messages that show it name the path.
    public var errorDescription: String? { String(cString: strerror(errno)) }
    public var description: String { "\(InputText.oneLine(path)): \(String(cString: strerror(errno)))" }
}
