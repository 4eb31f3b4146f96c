"""The Python package against the odr-sim binary (ODR_SIM, else PATH), run from the
repository's root: ``python3 -m unittest discover -s python/tests``."""
import csv
import os
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples" / "plugins"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import pandas as pd  # noqa: E402

import odrsim  # noqa: E402
from lru import LRU  # noqa: E402
from policies import Raises  # noqa: E402


class PackageTests(unittest.TestCase):
    def setUp(self):
        os.chdir(ROOT)
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)

    def out(self, name):
        return os.path.join(self.folder.name, name)

    def test_compare_is_comparison_csv(self):
        table = odrsim.compare("Scenarios/game.scn", replications=3, policy=["lru", "fifo"], out=self.out("c"))
        self.assertIsInstance(table, pd.DataFrame)
        with open(os.path.join(table.report, "comparison.csv"), newline="") as f:
            rows = list(csv.reader(f))
        # The same columns in the same order, one row per policy, and the numbers as written.
        self.assertEqual(list(table.columns), rows[0])
        self.assertEqual(list(table["policy"]), ["lru", "fifo"])
        self.assertEqual(table["replications"].tolist(), [3, 3])
        self.assertIn("summary", table.tables)
        self.assertEqual(len(table.tables["summary"]), 6)

    def test_names_that_are_not_utf8(self):
        # Issue 53: a scenario and a report folder whose names are not UTF-8 (os.fsdecode keeps
        # the byte 0xFF as a surrogate) are opened and written as those very bytes.
        scenario = os.fsdecode(os.fsencode(self.folder.name) + b"/m\xff.scn")
        with open("Scenarios/game.scn", "rb") as source, open(scenario, "wb") as copy:
            copy.write(source.read())
        out = os.fsdecode(os.fsencode(self.folder.name) + b"/r\xff")
        rows = odrsim.run(scenario, replications=1, policy="lru", no_report=True, out=out)
        self.assertEqual(list(rows["policy"]), ["lru"])
        self.assertIn(b"r\xff", os.listdir(os.fsencode(self.folder.name)))
        with self.assertRaises(odrsim.OdrSimError) as caught:
            odrsim.run(scenario + "x", replications=1, no_report=True, out=self.out("x"))
        self.assertIn("m\\xff.scnx:1:1: no such file", str(caught.exception))

    def test_compare_for_one_app_is_the_apps_answer(self):
        # Issue 50: compare(app=) is the app's table, its own metrics from comparison-apps.csv
        # and the device's (comparison.csv) where only the device has one, in comparison.csv's columns.
        table = odrsim.compare("Scenarios/shared-phone.scn", app="odyssey", replications=2, policy=["lru", "gdsf"],
                               out=self.out("a"))
        device = table.tables["comparison"].set_index("policy")
        apps = table.tables["comparison-apps"]
        own = apps[apps["app"] == "odyssey"].set_index("policy")
        self.assertEqual(list(table.columns), list(table.tables["comparison"].columns))
        self.assertEqual(list(table["policy"]), ["lru", "gdsf"])
        for _, row in table.iterrows():
            self.assertEqual(row["redownload_bytes_mean"], own.loc[row["policy"], "redownload_bytes_mean"])
            self.assertEqual(row["over_purge_bytes_mean"], device.loc[row["policy"], "over_purge_bytes_mean"])
            self.assertEqual(row["refused_other_bytes_mean"], device.loc[row["policy"], "refused_other_bytes_mean"])
        # The device re-downloads more than the game alone (the other apps' too): not the device's table.
        self.assertLess(table["redownload_bytes_mean"].sum(), device["redownload_bytes_mean"].sum())
        rows = odrsim.run("Scenarios/shared-phone.scn", app="odyssey", replications=2, policy="lru", no_report=True,
                          out=self.out("ar"))
        per_app = rows.tables["apps"]
        self.assertEqual(rows["redownload_bytes"].tolist(),
                         per_app[per_app["app"] == "odyssey"]["redownload_bytes"].tolist())

    def test_run_and_report_in_a_notebook(self):
        table = odrsim.run("Scenarios/game.scn", replications=2, policy="lru", out=self.out("r"))
        self.assertEqual(len(table), 2)
        self.assertIn("<iframe srcdoc=", table._repr_html_())
        # A sliced table is still a result with its report.
        self.assertEqual(table[table["replication"] == 1].report, table.report)
        quiet = odrsim.run("Scenarios/game.scn", replications=1, policy="lru", no_report=True, out=self.out("q"))
        self.assertNotIn("<iframe", quiet._repr_html_())

    def test_an_error_carries_the_one_line_message(self):
        bad = Path(self.out("bad.scn"))
        bad.write_text("name: bad\nduration: 1h\ndevice: {capacity: -5GB}\n")
        with self.assertRaises(odrsim.OdrSimError) as caught:
            odrsim.run(bad, out=self.out("b"))
        self.assertEqual(caught.exception.status, 1)
        self.assertTrue(str(caught.exception).startswith(f"{bad}:3:"), str(caught.exception))
        self.assertNotIn("\n", str(caught.exception))
        with self.assertRaises(odrsim.OdrSimError) as usage:
            odrsim.compare("Scenarios/game.scn", replications=0, out=self.out("u"))
        self.assertEqual(usage.exception.status, 64)

    def test_a_python_policy_is_lru_exactly(self):
        table = odrsim.replay("Scenarios/traces/zipf-20k.csv", capacity=["5%", "25%"], policy=[LRU, "lru"], out=self.out("p"))
        ours = table[table["policy"] == "LRU"].drop(columns="policy").reset_index(drop=True)
        theirs = table[table["policy"] == "lru"].drop(columns="policy").reset_index(drop=True)
        self.assertEqual(len(ours), 2)
        pd.testing.assert_frame_equal(ours, theirs)

    def test_a_policy_that_raises(self):
        with self.assertRaises(odrsim.OdrSimError) as caught:
            odrsim.replay("Scenarios/traces/zipf-20k.csv", policy=Raises, out=self.out("x"))
        self.assertIn("purge policy 'Raises'", str(caught.exception))
        self.assertIn("ZeroDivisionError", str(caught.exception))
        with self.assertRaises(TypeError):
            odrsim.replay("Scenarios/traces/zipf-20k.csv", policy=object, out=self.out("y"))

    def test_the_binary_is_found_or_named(self):
        saved = os.environ.get("ODR_SIM")
        try:
            os.environ["ODR_SIM"] = str(ROOT / "README.md")
            with self.assertRaises(odrsim.OdrSimError) as caught:
                odrsim.mrc("Scenarios/traces/zipf-20k.csv")
            self.assertIn("not an executable file", str(caught.exception))
        finally:
            if saved is None:
                os.environ.pop("ODR_SIM", None)
            else:
                os.environ["ODR_SIM"] = saved

    def test_a_crash_is_one_line_never_a_backtrace_line(self):
        # Issue 53: a stand-in for an odr-sim that crashes, its backtrace after the fatal line.
        fake = Path(self.out("odr-sim"))
        fake.write_text("#!/bin/sh\n"
                        "echo 'ODRCore/ODRDevice.swift:85: Fatal error: purge policy chose pack#3 twice' >&2\n"
                        "echo '' >&2\n"
                        "echo '0      0x00005633 main + 12 in odr-sim at /work/Sources/main.swift:3:1' >&2\n"
                        "kill -SEGV $$\n")
        fake.chmod(0o755)
        saved = os.environ.get("ODR_SIM")
        try:
            os.environ["ODR_SIM"] = str(fake)
            with self.assertRaises(odrsim.OdrSimError) as caught:
                odrsim.mrc("Scenarios/traces/zipf-20k.csv", out=self.out("m"))
        finally:
            if saved is None:
                os.environ.pop("ODR_SIM", None)
            else:
                os.environ["ODR_SIM"] = saved
        self.assertEqual(str(caught.exception),
                         "odr-sim crashed (SIGSEGV): ODRCore/ODRDevice.swift:85: Fatal error: purge policy chose pack#3 twice")
        self.assertEqual(caught.exception.status, -11)

    def test_a_cache_folder_that_is_a_file_is_an_odrsim_error(self):
        blocked = Path(self.out("cache"))
        blocked.write_text("not a folder\n")
        saved = os.environ.get("ODRSIM_CACHE")
        try:
            os.environ["ODRSIM_CACHE"] = str(blocked / "inner")
            with self.assertRaises(odrsim.OdrSimError) as caught:
                odrsim.replay("Scenarios/traces/zipf-20k.csv", policy=LRU, out=self.out("c"))
        finally:
            if saved is None:
                os.environ.pop("ODRSIM_CACHE", None)
            else:
                os.environ["ODRSIM_CACHE"] = saved
        self.assertIn("cannot use", str(caught.exception))
        self.assertIn("(ODRSIM_CACHE): Not a directory", str(caught.exception))
        self.assertTrue(blocked.is_file())

    def test_mrc_and_bound(self):
        curve = odrsim.mrc("Scenarios/traces/zipf-20k.csv", out=self.out("m"))
        self.assertGreater(len(curve), 5)
        # A miss-ratio curve falls as the cache grows.
        ratios = curve.sort_values(curve.columns[0])[[c for c in curve.columns if "miss_ratio" in c][0]].tolist()
        self.assertLessEqual(ratios[-1], ratios[0])


if __name__ == "__main__":
    unittest.main()
