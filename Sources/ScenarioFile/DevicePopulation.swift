import Quantities
import Simulation
import TextInput

/// The devices an app's layout is judged on (`advise --used`, `advise --population`): the
/// scenario as written with each device's settings, each read once here, so that no layout
/// is blamed for a device the scenario refuses.
public enum DevicePopulation {
    /// Why a population is refused: from a flag (`--used`, a misuse of the command line) or
    /// from a study file (input, at its `FILE:LINE:COLUMN`).
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public let isFlag: Bool
    }

    /// The devices of `--used` (a list of sizes) or else of `--population` (a study and its
    /// path); none without either.
    public static func devices(
        used: String?, study: (study: Study, path: String)?, text: String, file: String, parser: ScenarioParser
    ) throws(Failure) -> [(label: String, scenario: Scenario)] {
        if let used { return try Self.used(used, text: text, file: file, parser: parser) }
        guard let study else { return [] }
        return try Self.study(study.study, path: study.path, text: text, file: file, parser: parser)
    }

    /// `--used 56GB,60GB`: the scenario with each of these used spaces.
    public static func used(_ list: String, text: String, file: String, parser: ScenarioParser) throws(Failure)
        -> [(label: String, scenario: Scenario)]
    {
        let values = list.split(separator: ",", omittingEmptySubsequences: false).map {
            String($0).trimmingCharacters(in: .whitespaces)
        }
        for value in values {
            do { _ = try SizeSyntax.parse(value) } catch {
                throw Failure(
                    description: value.isEmpty
                        ? "--used: an empty entry in '\(list)'; give sizes separated by commas, such as 56GB,60GB"
                        : "--used: \(error)", isFlag: true)
            }
        }
        guard Set(values).count == values.count else {
            throw Failure(description: "--used lists a size twice: \(list)", isFlag: true)
        }
        return try values.map { value throws(Failure) in
            try device(
                [PathValue(path: "device.used", value: value)], names: nil, named: "--used \(value)", isFlag: true,
                text: text, file: file, parser: parser)
        }
    }

    /// `--population STUDY`: the scenario as each of the study's points sets it; its axes may
    /// vary only `device.*` and `network.*` (the layout is what advise searches).
    public static func study(_ study: Study, path: String, text: String, file: String, parser: ScenarioParser)
        throws(Failure) -> [(label: String, scenario: Scenario)]
    {
        if let axis = study.axes.first(where: { !($0.path.hasPrefix("device.") || $0.path.hasPrefix("network.")) }) {
            let place = axis.valueLocations.first ?? "\(InputText.oneLine(path)):1:1"
            throw Failure(
                description: """
                    \(place): axis '\(axis.name)' varies \(axis.path); a population (--population) varies only \
                    device.* and network.* (free space, bandwidth), as the layout is what advise searches
                    """, isFlag: false)
        }
        let names = study.axes.map(\.name)
        return try study.points.map { point throws(Failure) in
            let settings = study.settings(of: point)
            // A point the scenario refuses is the study's problem, at its first axis's value.
            let axis = study.axes[0]
            let location =
                axis.values.firstIndex(of: point.values[0]).flatMap {
                    axis.valueLocations.indices.contains($0) ? axis.valueLocations[$0] : nil
                } ?? "\(InputText.oneLine(path)):1:1"
            let named =
                "\(location): point \(PathValue.label(of: settings, names: names)) on \(InputText.oneLine(file))"
            return try device(
                settings, names: names, named: named, isFlag: false, text: text, file: file, parser: parser)
        }
    }

    private static func device(
        _ settings: [PathValue], names: [String]?, named: String, isFlag: Bool, text: String, file: String,
        parser: ScenarioParser
    ) throws(Failure) -> (label: String, scenario: Scenario) {
        do {
            let text = try ScenarioRewrite(text: text, fileName: file).setting(settings)
            return (PathValue.label(of: settings, names: names), try parser.parse(text, fileName: file).scenario)
        } catch { throw Failure(description: "\(named): \(error.message)", isFlag: isFlag) }
    }
}
