import Foundation
import Testing

/// Issue 41: the Python package (`python/`) is tested with the binary these tests built:
/// DataFrames with the CSVs' columns, errors as exceptions carrying odr-sim's line, a Python
/// policy equal to the built-in it copies. (CI also installs it into a fresh venv with pip.)
@Suite("The Python package")
struct PythonPackageTests {
    @Test("python/tests pass against this build (unittest, pandas)")
    func unittests() throws {
        let cache = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let result = try CLI.run(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", "-m", "unittest", "discover", "-s", "python/tests"],
            environment: [
                "ODR_SIM": CLI.binary.path, "PYTHONPATH": CLI.repository.appendingPathComponent("python").path,
                "ODRSIM_CACHE": cache.path, "PYTHONDONTWRITEBYTECODE": "1",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        // unittest reports on stderr: every test ran, none was skipped.
        let folder = CLI.repository.appendingPathComponent("python/tests")
        let written =
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".py") }
            .map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
            .joined().components(separatedBy: "\n    def test_").count - 1
        #expect(written >= 13)
        #expect(result.stderr.contains("Ran \(written) tests") && result.stderr.contains("\nOK"), "\(result.stderr)")
    }
}
