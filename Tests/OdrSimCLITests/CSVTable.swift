import Foundation
import Metrics

/// A CSV file as a test reads it: its header, and each row's field by column name.
struct CSVTable {
    let header: [String]
    let records: [[String]]

    init(contentsOf url: URL) throws {
        let all = try CSVReader.records(String(contentsOf: url, encoding: .utf8)).map(\.fields)
        header = all.first ?? []
        records = Array(all.dropFirst())
    }

    /// The row indices.
    var rows: Range<Int> { records.indices }

    /// Row `row`'s field in column `column` ("" where the file has no such column).
    subscript(row: Int, column: String) -> String {
        header.firstIndex(of: column).map { records[row][$0] } ?? ""
    }

    /// Every row's field in column `column`, in file order.
    func column(_ column: String) -> [String] { rows.map { self[$0, column] } }
}
