from pathlib import Path

from piramida.env.kernel_cache import STAMP, drop_stale


def _tree(tmp_path: Path) -> Path:
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "b.py").write_text("y = 2\n")
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    return cache


def _fill(cache: Path) -> None:
    (cache / "a.f-1.py311.nbi").write_bytes(b"index")
    (cache / "a.f-1.py311.1.nbc").write_bytes(b"code")
    (cache / "a.cpython-311.pyc").write_bytes(b"pyc")


def test_cache_is_dropped_when_any_source_changes_and_kept_otherwise(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    cache = _tree(tmp_path)
    _fill(cache)
    assert drop_stale(tmp_path)  # no stamp yet: unknown provenance, dropped
    assert not list(cache.glob("*.nb*")) and (cache / "a.cpython-311.pyc").exists()
    assert (cache / STAMP).is_file()
    _fill(cache)
    assert not drop_stale(tmp_path)  # same sources: kept
    assert len(list(cache.glob("*.nb*"))) == 2
    (tmp_path / "b.py").write_text("y = 3\n")  # a callee changed
    assert drop_stale(tmp_path)
    assert not list(cache.glob("*.nb*"))


def test_a_cache_kept_elsewhere_is_left_alone(tmp_path, monkeypatch):
    cache = _tree(tmp_path)
    _fill(cache)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "elsewhere"))
    assert not drop_stale(tmp_path)
    assert len(list(cache.glob("*.nb*"))) == 2


def test_no_cache_folder_is_nothing_to_do(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    (tmp_path / "a.py").write_text("x = 1\n")
    assert not drop_stale(tmp_path)
    assert not (tmp_path / "__pycache__").exists()


def test_a_change_to_a_module_the_kernels_take_constants_from_drops_the_cache(tmp_path, monkeypatch):
    # env/events.py's codes are compiled into the physics' and the rules'
    # kernels: a change there must drop both caches too.
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    cache = _tree(pkg)
    codes = tmp_path / "events.py"
    codes.write_text("CUE = 0\n")
    drop_stale(pkg, (codes,))
    _fill(cache)
    assert not drop_stale(pkg, (codes,))
    codes.write_text("CUE = 7\n")
    assert drop_stale(pkg, (codes,))
    assert not list(cache.glob("*.nb*"))
