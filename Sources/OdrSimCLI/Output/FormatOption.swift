import ArgumentParser
import Experiments
import Metrics
import SafeOutput
import ScenarioFile

/// What a command prints on stdout.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// `--format text|json`, declared once for every command that prints a summary. JSON is one
/// object per command, its keys in a fixed order, its rows those of the CSV files the command
/// wrote, each value typed as `docs/data-dictionary.md` says (``Metrics/JSONText``); nothing in
/// it depends on the machine or the clock: the same run prints the same bytes.
struct FormatOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            """
            What stdout gets: text (tables, for people) or json (one object for scripts: the summary's rows with \
            typed values, the verdict, where the files went; warnings and progress stay on stderr).
            """,
            valueName: "format"))
    var format: OutputFormat = .text

    var json: Bool { format == .json }
}
