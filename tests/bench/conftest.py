"""The harness package lives in benchmarks/harness; make it importable for the tests."""
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))
