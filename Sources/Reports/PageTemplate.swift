import Mustache

/// The page every report fills: a Mustache template (sections, charts, tables), with its
/// style inline, so one file opens anywhere with no request leaving it.
enum PageTemplate {
    static let text = #"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="odr-sim">
        <title>{{title}}</title>
        <style>
        body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1a1a; margin: 2em \#
        auto; max-width: 1000px; padding: 0 1em; }
        h1 { font-size: 1.6em; margin-bottom: 0.2em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px \#
        solid #ddd; }
        .lede { color: #444; } .headline { font-weight: 500; } .facts td { text-align: left; } .facts td:first-child \#
        { color: #555; padding-right: 1em; }
        table { border-collapse: collapse; margin: 0.5em 0; } th, td { padding: 3px 8px; text-align: right; \#
        border-bottom: 1px solid #eee; }
        th:first-child, td:first-child { text-align: left; } th { background: #f4f4f4; }
        td.best { font-weight: bold; background: #e3f1e3; }
        figure { margin: 1em 0; } figcaption { color: #555; font-size: 0.9em; }
        svg.chart { width: 100%; height: auto; font-size: 11px; }
        svg .chart-title { font-size: 13px; font-weight: 600; } svg .grid { stroke: #e6e6e6; } svg .plot { fill: \#
        none; stroke: #999; }
        svg .tickmark { stroke: #999; } svg .reference { stroke: #b00; stroke-dasharray: 5 3; } svg .reference-label \#
        { fill: #b00; }
        svg .mark { stroke-width: 1; stroke-opacity: 0.5; } svg circle.hover { fill: transparent; stroke: none; } svg \#
        circle.hover:hover { fill: #000; fill-opacity: 0.4; }
        details { margin: 0.3em 0 1.2em; } summary { cursor: pointer; color: #555; }
        .note { color: #555; font-size: 0.9em; }
        @media print { details { display: none; } }
        </style>
        </head>
        <body>
        <h1>{{title}}</h1>
        <p class="lede">{{lede}}</p>
        {{#hasHeadline}}<ul class="headline">{{#headline}}<li>{{.}}</li>{{/headline}}</ul>{{/hasHeadline}}
        {{#hasFacts}}<table \#
        class="facts">{{#facts}}<tr><td>{{name}}</td><td>{{value}}</td></tr>{{/facts}}</table>{{/hasFacts}}
        {{#sections}}
        <h2>{{heading}}</h2>
        {{#text}}<p>{{text}}</p>{{/text}}
        {{#table}}
        <table class="numbers"><thead><tr>{{#header}}<th>{{.}}</th>{{/header}}</tr></thead>
        <tbody>{{#rows}}<tr>{{#cells}}<td class="{{class}}" \#
        title="{{exact}}">{{text}}</td>{{/cells}}</tr>{{/rows}}</tbody></table>
        {{/table}}
        {{#figures}}
        <figure>{{{svg}}}
        {{#caption}}<figcaption>{{caption}}</figcaption>{{/caption}}
        {{#table}}<details><summary>Numbers</summary>
        <table class="numbers"><thead><tr>{{#header}}<th>{{.}}</th>{{/header}}</tr></thead>
        <tbody>{{#rows}}<tr>{{#cells}}<td>{{.}}</td>{{/cells}}</tr>{{/rows}}</tbody></table></details>{{/table}}
        </figure>
        {{/figures}}
        {{/sections}}
        <p class="note">Written by odr-sim. Hover over a chart for its exact numbers; each chart's numbers are also \#
        in the table below it. The CSV files beside this page hold every value.</p>
        </body>
        </html>
        """#

    /// The page for `context` (nested dictionaries and arrays; see ``Page``).
    static func render(_ context: [String: Any]) -> String {
        // The template is fixed text: a parse failure is a bug, caught by every report test.
        let template = try! MustacheTemplate(string: text)
        return template.render(context)
    }
}

/// A report page: title, lede, key facts, and sections of text, tables and figures.
public struct Page {
    public struct Table {
        public var header: [String]
        /// Per row, per cell: (text shown, exact value for the hover, highlighted as best).
        public var rows: [[(text: String, exact: String, best: Bool)]]
        public init(header: [String], rows: [[(text: String, exact: String, best: Bool)]]) {
            self.header = header
            self.rows = rows
        }
    }

    public struct Figure {
        public var chart: Chart
        public var caption: String
        /// The chart's numbers: header and rows of text.
        public var numbers: (header: [String], rows: [[String]])?
        public init(chart: Chart, caption: String = "", numbers: (header: [String], rows: [[String]])? = nil) {
            self.chart = chart
            self.caption = caption
            self.numbers = numbers
        }
    }

    public struct Section {
        public var heading: String
        public var text: String = ""
        public var table: Table?
        public var figures: [Figure] = []
        public init(heading: String, text: String = "", table: Table? = nil, figures: [Figure] = []) {
            self.heading = heading
            self.text = text
            self.table = table
            self.figures = figures
        }
    }

    public var title: String
    public var lede: String
    /// The verdict, one line per main metric, shown under the lede (``Metrics/Verdict``).
    public var headline: [String] = []
    public var facts: [(name: String, value: String)]
    public var sections: [Section]

    public init(title: String, lede: String, facts: [(name: String, value: String)] = [], sections: [Section] = []) {
        self.title = title
        self.lede = lede
        self.facts = facts
        self.sections = sections
    }

    /// The whole page as one self-contained HTML file.
    public var html: String {
        func table(_ t: Table) -> [String: Any] {
            [
                "header": t.header,
                "rows": t.rows.map { row in
                    ["cells": row.map { ["text": $0.text, "exact": $0.exact, "class": $0.best ? "best" : ""] }]
                },
            ]
        }
        let context: [String: Any] = [
            "title": title, "lede": lede, "hasFacts": !facts.isEmpty,
            "hasHeadline": !headline.isEmpty, "headline": headline,
            "facts": facts.map { ["name": $0.name, "value": $0.value] },
            "sections": sections.map { section -> [String: Any] in
                var s: [String: Any] = ["heading": section.heading, "text": section.text]
                if let t = section.table { s["table"] = table(t) }
                s["figures"] = section.figures.map { figure -> [String: Any] in
                    var f: [String: Any] = ["svg": figure.chart.svg, "caption": figure.caption]
                    if let n = figure.numbers {
                        f["table"] = ["header": n.header, "rows": n.rows.map { ["cells": $0] }]
                    }
                    return f
                }
                return s
            },
        ]
        return PageTemplate.render(context)
    }
}
