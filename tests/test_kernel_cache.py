"""Which features' kernels are compiled into the cache (engine/kernel_cache.py): a marker that
holds for these sources only, so a kernel added or changed anywhere is compiled by the feature's
warm-up again, never inside a request."""
from solver.engine import kernel_cache


def test_a_marker_holds_for_the_sources_it_was_left_by(monkeypatch, tmp_path):
    monkeypatch.setattr(kernel_cache, "kernel_cache_dir", lambda: tmp_path)
    assert not kernel_cache.compiled("duel")
    kernel_cache.mark_compiled("duel")
    assert kernel_cache.compiled("duel") and not kernel_cache.compiled("win")
    # another version of any source (a new dense kernel, say): the marker no longer holds
    monkeypatch.setattr(kernel_cache, "_package_fingerprint", lambda: "another")
    assert not kernel_cache.compiled("duel")
    kernel_cache.mark_compiled("duel")  # compiled again: the old marker goes
    assert kernel_cache.compiled("duel")
    assert [p.name for p in tmp_path.iterdir()] == ["ready-duel-another"]


def test_a_cache_that_cannot_be_written_marks_nothing_and_says_nothing(monkeypatch, tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("")
    monkeypatch.setattr(kernel_cache, "kernel_cache_dir", lambda: blocked / "kernels")
    kernel_cache.mark_compiled("win")  # no error: the kernels are compiled in each process
    assert not kernel_cache.compiled("win")
