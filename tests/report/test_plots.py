"""The figures: PNG bytes that decode, change with their input, and survive hostile labels."""

from __future__ import annotations

import io

import numpy as np
import pytest

from bluffcheck.report import plots
from bluffcheck.report.load import validate_records
from bluffcheck.report.summary import summarize

from .conftest import make_records


def _image(png: bytes) -> np.ndarray:
    import matplotlib.image as mpimg

    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    return mpimg.imread(io.BytesIO(png), format="png")


def _has_colour(img: np.ndarray, hex_colour: str, *, tol: float = 0.03, at_least: int = 20) -> bool:
    rgb = np.array([int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)])
    return int((np.abs(img[..., :3] - rgb).max(axis=-1) < tol).sum()) >= at_least


@pytest.fixture(scope="module")
def summary() -> dict:
    return summarize(validate_records(make_records(0)), n_boot=50)


def test_arr_figure_draws_one_colour_per_scorer(summary: dict) -> None:
    img = _image(plots.arr_figure(summary["adversarial"]))
    assert img.shape[0] > 300 and img.shape[1] > 600
    assert _has_colour(img, plots.PALETTE[0]) and _has_colour(img, plots.PALETTE[1])
    one = _image(plots.arr_figure([r for r in summary["adversarial"] if r["scorer"] == "bigru"]))
    assert _has_colour(one, plots.PALETTE[0]) and not _has_colour(one, plots.PALETTE[1])


def test_overstability_figure_has_a_panel_per_scorer(summary: dict) -> None:
    rows = summary["overstability_methods"]
    two = _image(plots.overstability_figure(rows))
    one = _image(plots.overstability_figure([r for r in rows if r["scorer"] == "bigru"]))
    assert two.shape[0] > one.shape[0]
    assert _has_colour(two, plots.PALETTE[5], at_least=500) and _has_colour(two, plots.PALETTE[0], at_least=500)


def test_overstability_figure_draws_missing_mu_as_no_bar() -> None:
    rows = [{"scorer": "s", "method": "m", "mu_pos": None, "mu_neg": 12.0, "n_pos": 0.0}]
    img = _image(plots.overstability_figure(rows))
    assert _has_colour(img, plots.PALETTE[0], at_least=500) and not _has_colour(img, plots.PALETTE[5], at_least=500)


def test_score_distribution_figure_skips_empty_groups() -> None:
    groups = {"a": {"real answers": [0.0, 0.5, 1.0], "bluffs": [0.0, 0.0], "perturbed answers": []},
              "b": {"real answers": [1.0], "bluffs": [], "perturbed answers": [0.5]}}
    img = _image(plots.score_distribution_figure(groups))
    assert img.shape[1] > 800


def test_curves_figure_and_curve_validation() -> None:
    cs = plots.CurveSet("Filter: non-word rate", (plots.Curve("ARR", [0.1, 0.5, 0.9], [0.2, 0.6, 0.95]),
                                                   plots.Curve("shuffle (trade-off)", [0.7], [0.9])), "threshold", "rate")
    _image(plots.curves_figure(cs))
    with pytest.raises(ValueError, match="same, non-zero length"):
        plots.Curve("bad", [1, 2], [1])


def test_labels_with_mathtext_and_underscores_render_literally() -> None:
    assert plots.label("$x^2$ costs $5") == r"\$x^2\$ costs \$5"
    assert plots.label("_hidden").startswith(" ")
    assert plots.label("a" * 100, 10) == "a" * 9 + "…"
    rows = [{"scorer": "_s$", "method": "$\\frac{", "prompt": "1", "arr": 0.5}]
    _image(plots.arr_figure(rows))  # unbalanced mathtext would raise if it reached the parser


def test_data_uri_is_base64_png() -> None:
    uri = plots.data_uri(b"\x89PNG\r\n\x1a\nxyz")
    assert uri.startswith("data:image/png;base64,") and set(uri[22:]) <= set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")
