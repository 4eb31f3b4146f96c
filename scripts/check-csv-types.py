#!/usr/bin/env python3
"""Checks every CSV under DIR against docs/data-dictionary.md, as a script would read it.

    scripts/check-csv-types.py DIR [DICTIONARY]

Each file is read with Python's csv module; every column must be in the dictionary (by name,
or by its pattern: `M_mean` for a metric `M`, `A_bytes` for a study axis `A` beside its label
column), and every value must parse as the column's type. Prints one line per problem and
exits 1 if there is any; prints what it checked and exits 0 otherwise.

Where pandas is installed (`scripts/bootstrap --tests` installs it), each file is also read
with `pandas.read_csv` as it is, no options, and every integer or number column must come
out numeric (int64 or float64): what a notebook sees, with no cleanup.
"""
import csv
import os
import importlib.util
import re
import sys

TYPES = {
    "integer": lambda v: re.fullmatch(r"-?\d+", v) is not None,
    "number": lambda v: _is_float(v),
    "text": lambda v: True,
    "boolean": lambda v: v in ("true", "false"),
}


def _is_float(value):
    try:
        float(value)
        return value.strip() == value and value.lower() not in ("nan", "inf", "-inf", "infinity")
    except ValueError:
        return False


def read_dictionary(path):
    columns = {}
    for line in open(path, encoding="utf-8"):
        m = re.match(r"\|\s*`([^`]+)`\s*\|\s*(integer|number|text|boolean)(\?)?\s*\|", line)
        if m:
            columns[m.group(1)] = (m.group(2), m.group(3) == "?")
    return columns


def entry(column, header, columns):
    """The dictionary's (type, may be empty) for `column` of a file whose header is `header`."""
    if column in columns:
        return columns[column]
    metrics = [c for c in columns if c not in ("M", "A") and not c.startswith(("M_", "A_"))]
    for metric in metrics:
        m = re.fullmatch(re.escape(metric) + r"_(mean|sd|ci_low|ci_high|diff_ci_low|diff_ci_high|diff_vs_.+)", column)
        if m:
            return columns["M_diff_vs_B" if m.group(1).startswith("diff_vs_") else "M_" + m.group(1)]
    # A study axis: a label column, or a numeric column right after its label.
    i = header.index(column)
    for suffix in ("_bytes", "_s", "_bps", "_per_s", "_fraction"):
        if column.endswith(suffix) and i > 0 and header[i - 1] == column[: -len(suffix)]:
            return columns["A" + suffix]
    if "policy" in header and i < header.index("policy"):
        return columns["A"]
    return None


def check(directory, dictionary):
    columns = read_dictionary(dictionary)
    problems, files, values = [], 0, 0
    for root, _, names in sorted(os.walk(directory)):
        for name in sorted(names):
            if not name.endswith(".csv"):
                continue
            path = os.path.join(root, name)
            with open(path, newline="", encoding="utf-8") as handle:
                rows = list(csv.reader(handle))
            if rows and rows[0] and rows[0][0].startswith("#"):
                continue  # a shard file: odr-sim's own format, read by `sweep merge`
            files += 1
            header = rows[0]
            if len(set(header)) != len(header):
                problems.append(f"{path}: a column name repeats")
            kinds = [entry(c, header, columns) for c in header]
            for c, kind in zip(header, kinds):
                if kind is None:
                    problems.append(f"{path}: column '{c}' is not in {dictionary}")
            for n, row in enumerate(rows[1:], start=2):
                if len(row) != len(header):
                    problems.append(f"{path}:{n}: {len(row)} fields, the header has {len(header)}")
                    continue
                for c, kind, value in zip(header, kinds, row):
                    if kind is None:
                        continue
                    values += 1
                    type_, optional = kind
                    if value == "":
                        if not optional:
                            problems.append(f"{path}:{n}: '{c}' is empty")
                    elif not TYPES[type_](value):
                        problems.append(f"{path}:{n}: '{c}' is '{value}', not {'an' if type_ == 'integer' else 'a'} {type_}")
    return problems, files, values


def check_with_pandas(directory, dictionary):
    """Reads every CSV with pandas.read_csv as it is; returns (problems, files, numeric columns)."""
    import pandas
    from pandas.api.types import is_numeric_dtype
    columns = read_dictionary(dictionary)
    problems, files, numeric = [], 0, 0
    for root, _, names in sorted(os.walk(directory)):
        for name in sorted(names):
            path = os.path.join(root, name)
            if not name.endswith(".csv"):
                continue
            with open(path, encoding="utf-8") as handle:
                if handle.readline().startswith("#"):
                    continue  # a shard file
            frame = pandas.read_csv(path)
            files += 1
            header = list(frame.columns)
            for c in header:
                kind = entry(c, header, columns)
                if kind is None or kind[0] not in ("integer", "number"):
                    continue
                numeric += 1
                if not is_numeric_dtype(frame[c]):
                    problems.append(f"{path}: pandas reads '{c}' as {frame[c].dtype}, not as numbers")
    return problems, files, numeric


def report(problems, files, failure_prefix, success):
    """Prints the first 50 problems and a closing line; returns whether there were any."""
    for p in problems[:50]:
        print(p)
    print(f"{failure_prefix}{len(problems)} problems in {files} files" if problems else success)
    return bool(problems)


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    here = os.path.dirname(os.path.abspath(__file__))
    dictionary = sys.argv[2] if len(sys.argv) == 3 else os.path.join(here, "..", "docs", "data-dictionary.md")
    problems, files, values = check(sys.argv[1], dictionary)
    failed = report(problems, files, "", f"{files} files, {values} values: every column documented, every value of its type")
    if importlib.util.find_spec("pandas") is not None:
        import pandas
        problems, files, numeric = check_with_pandas(sys.argv[1], dictionary)
        failed |= report(problems, files, "pandas: ",
                         f"pandas {pandas.__version__}: {files} files read as they are, {numeric} numeric columns all numeric")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
