"""The bench figures compute (tiny samples: the numbers themselves are not pinned)."""

from bot.tools.bench import rallyman as bench


def test_bench_figures_compute():
    assert bench.turns_per_second(0.2) > 0
    assert bench.render_ms_p95(samples=3) > 0


def test_styles_script_prints_its_figures(capsys):
    from bot.tools.bench import rallyman_styles as styles

    styles.main(["1", "Rally4 SS1"])
    out = capsys.readouterr().out.splitlines()
    names = [line.split(":")[0] for line in out]
    assert {
        "steady_vs_par",
        "bold_vs_par",
        "cautious_vs_par",
        "menu-first_vs_par",
        "par_vs_par",
        "clicks_per_turn_defaults_median",
        "par_losses_of_control",
    } <= set(names)
    assert all(len(line.split(": ")) == 2 and len(line.split(": ")[1].split(" ", 1)) == 2 for line in out)
