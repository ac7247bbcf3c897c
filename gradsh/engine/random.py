"""Host-side random numbers that reproduce PyTorch's CPU default generator bit for bit.

PyTorch's CPU generator (aten/src/ATen/CPUGeneratorImpl.cpp) is a 32-bit Mersenne Twister
(aten/src/ATen/core/MT19937RNGEngine.h) plus one cached normal sample. Every sampler below
consumes the raw stream exactly as the corresponding ATen CPU kernel does and then repeats its
arithmetic operation by operation, so `manual_seed(s)` followed by any sequence of calls gives
the same bits as the same sequence in PyTorch 2.13:

=====================  ===========================================================================
stream                 mt19937 seeded with the low 32 bits of the 64-bit seed (init_genrand);
                       random() is one 32-bit output, random64() is (first << 32) | second
uniform float32        (random() & (2**24 - 1)) * 2**-24, then fma(x, to - from, from) in float32
uniform float64        (random64() & (2**53 - 1)) * 2**-53, then fma(x, to - from, from) in double
normal, numel < 16     per element Box-Muller in double with a cached second sample
normal, numel >= 16    all uniforms first, then Box-Muller on blocks of 16 (8 pairs); a ragged
                       tail redraws 16 uniforms for the last 16 elements (NormalFill16)
randint                random() % range + low, or random64() % range + low when range >= 2**28
=====================  ===========================================================================

float16 samples like float32 (PyTorch computes them in float) and rounds at the end.

The raw stream comes from NumPy's MT19937 (same recurrence and tempering; we set its key
ourselves with PyTorch's seeding), so large draws are vectorised: 10**6 float32 normals take
tens of milliseconds. The math functions are where bit-exactness is earned, see the NOTEs in
the float32 Box-Muller section, on `_libm` and on `_fma64`.

NOTE: the float32 normals of 16 or more elements follow PyTorch's x86-64 build on a CPU with
AVX2 (its AVX2 kernel, which AVX-512 machines use too). Without AVX2, or on ARM, PyTorch runs a
scalar float kernel on the platform's logf/sinf/cosf, which this module does not reproduce.
"""

from __future__ import annotations

import array
import math
import secrets
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from gradsh.engine import dtypes
from gradsh.engine.dtypes import DType
from gradsh.engine.exceptions import TorchRuntimeError, warn
from gradsh.engine.vecmath import native

__all__ = ["Generator", "GeneratorCheckpoint", "GeneratorState", "default_generator"]

# A message while no draw is allowed (torch.func.vmap's randomness="error" mode sets it around
# the mapped function): every draw from any generator raises it as a RuntimeError, before drawing.
DRAWS_FORBIDDEN: list[str | None] = [None]

_MT_N = 624  # words of mt19937 state
_U32 = np.uint32
_U64 = np.uint64
_F32 = np.float32
# PyTorch's mt19937 engine only takes the low 32 bits of the seed (init_with_uint32).
_SEED_MASK = 0xFFFFFFFF
# torch.manual_seed accepts Python ints in [-2**63, 2**64): negative seeds wrap to uint64.
_SEED_MIN = -(2**63)
_SEED_MAX = 2**64 - 1
# randint ranges from which each value takes random64() instead of random().
_WIDE_RANGE = 2**28
# numel from which torch.normal_ switches from per-element Box-Muller to NormalFill16 blocks.
_FILL_MIN_NUMEL = 16
# torch.randperm keeps its simple Fisher-Yates loop below this n (TensorFactories.cpp).
_RANDPERM_MAX = (2**32 - 1) // 20
# Large draws are made and transformed this many values at a time, in stream order, so that the
# temporaries stay small whatever the size (a multiple of 16: NormalFill16's blocks).
_CHUNK = 1 << 18
# The C++ type names PyTorch quotes in "from is out of bounds for <type>".
_CPP_NAMES = {
    "bool": "bool",
    "uint8": "unsigned char",
    "int8": "signed char",
    "int16": "short",
    "int32": "int",
    "int64": "long",
    "float16": "c10::Half",
    "bfloat16": "c10::BFloat16",
    "float32": "float",
    "float64": "double",
}


@dataclass(frozen=True)
class GeneratorState:
    """An immutable snapshot of a Generator (what torch.get_rng_state captures)."""

    seed: int  # the 64-bit seed initial_seed() reports
    key: bytes  # the 624 mt19937 words, little-endian uint32
    pos: int  # index of the next word to temper; 624 means "twist before the next draw"
    next_double_normal: float | None  # Box-Muller's cached second sample


class GeneratorCheckpoint:
    """A generator's state as it was when the checkpoint was made, to put back with `restore`.

    The state (2.5 kB of mt19937 words, about 30 µs to copy) is copied only when the generator
    is about to change while the checkpoint is alive: most statements draw nothing, and then a
    checkpoint costs nothing but itself.
    """

    __slots__ = ("generator", "state", "__weakref__")

    def __init__(self, generator: Generator) -> None:
        self.generator = generator
        self.state: GeneratorState | None = None  # set on the first change after the checkpoint

    def restore(self) -> None:
        """Put the generator back as it was at the checkpoint (nothing to do if unchanged)."""
        if self.state is not None:
            self.generator.set_raw_state(self.state)


class Generator:
    """PyTorch's CPU generator: a seeded mt19937 stream and the samplers built on it.

    Every sampler returns a new C-contiguous NumPy array of `shape` with `dtype.np`; the values
    are those PyTorch's CPU kernels write into a fresh contiguous tensor (the `*_like` variants
    draw from the same stream, so `rand_like(x)` is `rand(x.shape, x.dtype)`). Arguments PyTorch
    rejects raise with PyTorch's message: NotImplementedError for an unsupported dtype (as
    PyTorch), ValueError where PyTorch raises RuntimeError. Nothing is drawn when a call raises.
    """

    def __init__(self, seed: int | None = None) -> None:
        self._bits = np.random.MT19937()
        self._seed = 0
        self._next_double_normal: float | None = None
        # checkpoints still waiting for the state before the next change (see checkpoint())
        self._checkpoints: weakref.WeakSet[GeneratorCheckpoint] = weakref.WeakSet()
        if seed is None:
            self.seed()
        else:
            self.manual_seed(seed)

    # ----------------------------------------------------------------------------- seeding

    def manual_seed(self, seed: int) -> Generator:
        """torch.manual_seed: reset the stream and drop any cached normal sample; returns the
        generator, as PyTorch's does (`g = torch.Generator().manual_seed(0)`)."""
        seed = int(seed)  # as torch.manual_seed, which seeds 1.5 as 1
        if not _SEED_MIN <= seed <= _SEED_MAX:
            raise ValueError("Overflow when unpacking long long")
        self._changing()
        self._seed = seed % 2**64
        self._next_double_normal = None
        self._bits.state = {
            "bit_generator": "MT19937",
            "state": {"key": _init_genrand(self._seed & _SEED_MASK), "pos": _MT_N},
        }
        return self

    def seed(self) -> int:
        """torch.seed: reseed from the OS's entropy with a full 64-bit seed and return it."""
        value = secrets.randbits(64)
        self.manual_seed(value)
        return value

    def initial_seed(self) -> int:
        """torch.initial_seed: the 64-bit seed last set (always in [0, 2**64))."""
        return self._seed

    def checkpoint(self) -> GeneratorCheckpoint:
        """A checkpoint of the state now, copied lazily: see GeneratorCheckpoint."""
        checkpoint = GeneratorCheckpoint(self)
        self._checkpoints.add(checkpoint)
        return checkpoint

    def __getstate__(self) -> dict[str, object]:
        """Pickled and copied without its checkpoints (they belong to this process's caller)."""
        state = dict(self.__dict__)
        del state["_checkpoints"]
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._checkpoints = weakref.WeakSet()

    def _changing(self) -> None:
        """Called before anything changes the state: live checkpoints take their copy now."""
        if self._checkpoints:
            state = self.raw_state()
            for checkpoint in list(self._checkpoints):
                checkpoint.state = state
            self._checkpoints.clear()

    def get_state(self) -> GeneratorState:
        state = self._bits.state["state"]
        key = np.asarray(state["key"], dtype="<u4").tobytes()
        return GeneratorState(self._seed, key, int(state["pos"]), self._next_double_normal)

    def set_state(self, state: GeneratorState) -> Generator:
        key = np.frombuffer(state.key, dtype="<u4").astype(_U32)
        if key.shape != (_MT_N,) or not 0 <= state.pos <= _MT_N:
            raise ValueError("Invalid mt19937 state")
        self._changing()
        self._bits.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": state.pos}}
        self._seed = state.seed
        self._next_double_normal = state.next_double_normal
        return self

    # the engine's own view of the state (torch.Generator's get_state gives PyTorch's bytes)
    raw_state = get_state
    set_raw_state = set_state

    # ----------------------------------------------------------------------------- raw stream

    def _random(self, n: int) -> np.ndarray:
        """n outputs of CPUGeneratorImpl::random(), as uint32."""
        if DRAWS_FORBIDDEN[0] is not None:
            raise TorchRuntimeError(DRAWS_FORBIDDEN[0])
        self._changing()
        return self._bits.random_raw(n).astype(_U32)

    def _random64(self, n: int) -> np.ndarray:
        """n outputs of CPUGeneratorImpl::random64(): two draws, the first is the high word."""
        if DRAWS_FORBIDDEN[0] is not None:
            raise TorchRuntimeError(DRAWS_FORBIDDEN[0])
        self._changing()
        words = self._bits.random_raw(2 * n)
        return (words[0::2] << _U64(32)) | words[1::2]

    def _unit(self, n: int, dtype: DType) -> np.ndarray:
        """n draws of uniform_real_distribution<T>(0, 1): T's mantissa width of random bits."""
        if n <= _CHUNK:
            return self._unit_chunk(n, dtype)
        out = np.empty(n, dtype=np.float64 if dtype is dtypes.float64 else _F32)
        for start in range(0, n, _CHUNK):
            out[start : start + _CHUNK] = self._unit_chunk(min(_CHUNK, n - start), dtype)
        return out

    def _unit_chunk(self, n: int, dtype: DType) -> np.ndarray:
        if dtype is dtypes.float64:
            bits = self._random64(n) & _U64(2**53 - 1)
            return bits.astype(np.float64) * 2.0**-53
        # float32, and the float opmath of float16: 24 bits of one 32-bit draw.
        bits = self._random(n) & _U32(2**24 - 1)
        return bits.astype(_F32) * _F32(2.0**-24)

    # ----------------------------------------------------------------------------- uniform

    def rand(self, shape: Sequence[int], dtype: DType) -> np.ndarray:
        """torch.rand: uniform on [0, 1)."""
        return self.uniform(0.0, 1.0, shape, dtype)

    def uniform(self, low: float, high: float, shape: Sequence[int], dtype: DType) -> np.ndarray:
        """torch.empty(shape, dtype=dtype).uniform_(low, high)."""
        _check_floating(dtype, "check_uniform_bounds")
        largest = float(np.finfo(dtype.np).max)
        for name, bound in (("from", low), ("to", high)):
            if not -largest <= bound <= largest:
                raise ValueError(f"{name} is out of bounds for {_CPP_NAMES[dtype.name]}")
        if not low <= high:
            raise ValueError(
                f"uniform_ expects to return a [from, to) range, but found from={_fmt(low)} > "
                f"to={_fmt(high)}"
            )
        if high - low > largest:
            raise ValueError(
                f"uniform_ expects to-from <= std::numeric_limits<{dtype.short}>::max(), but "
                f"found to={_fmt(high)} and from={_fmt(low)} which result in to-from to exceed "
                "the limit"
            )
        n = _numel(shape)
        values = np.empty(n, dtype=dtype.np)
        for start in range(0, n, _CHUNK):
            values[start : start + _CHUNK] = self._uniform_chunk(
                low, high, min(_CHUNK, n - start), dtype)
        return _shaped(values, shape)

    def _uniform_chunk(self, low: float, high: float, n: int, dtype: DType) -> np.ndarray:
        if dtype is dtypes.float64:
            x = self._unit(n, dtypes.float64)
            if not (low == 0 and high == 1):  # fma(x, 1, 0) is x: torch.rand skips the work
                x = _fma64(x, np.full_like(x, high - low), np.full_like(x, low))
        else:
            # float32, and float16 whose kernel computes in float (its opmath type).
            x = self._unit(n, dtypes.float32)
            lo, hi = _F32(low), _F32(high)
            if not (lo == 0 and hi == 1):
                x = _fma32(x, hi - lo, lo, tiny_results=True)
        values = x.astype(dtype.np, copy=False)
        # NOTE: the kernel maps a value that rounded up to `to` back to `from` (in the output
        # dtype), which keeps the range half-open after the fma or the cast to float16.
        values[values == _scalar(high, dtype)] = _scalar(low, dtype)
        return values

    # ----------------------------------------------------------------------------- normal

    def randn(self, shape: Sequence[int], dtype: DType, contiguous: bool = True) -> np.ndarray:
        """torch.randn: standard normal."""
        return self.normal(0.0, 1.0, shape, dtype, contiguous)

    def normal(self, mean: float, std: float, shape: Sequence[int], dtype: DType,
               contiguous: bool = True) -> np.ndarray:
        """torch.normal(mean, std, shape) with float mean and std. A tensor that is not
        contiguous (randn_like of a transposed one) is filled element by element, in memory
        order, whatever its size: normal_kernel's fill needs a contiguous tensor."""
        _check_floating(dtype, "normal_kernel_cpu")
        if not std >= 0.0:
            raise ValueError(f"normal expects std >= 0.0, but found std {_fmt(std)}")
        n = _numel(shape)
        # Overflowing to infinity when rounding to a narrower dtype is PyTorch's behaviour too.
        with np.errstate(over="ignore"):
            if n < _FILL_MIN_NUMEL or not contiguous:
                values = self._normal_scalar(n, float(mean), float(std))
                if dtype is not dtypes.float64:
                    # static_cast<scalar_t>(double): c10::Half converts through float.
                    values = values.astype(_F32)
            elif dtype is dtypes.float64:
                values = self._normal_fill_double(n, float(mean), float(std))
            elif dtype is dtypes.float32:
                values = self._normal_fill_float(n, _F32(mean), _F32(std))
            else:
                values = self._normal_fill_half(n, _F32(mean), _F32(std), dtype.np)
            return _shaped(values.astype(dtype.np, copy=False), shape)

    def _normal_scalar(self, n: int, mean: float, std: float) -> np.ndarray:
        """at::normal_distribution<double> element by element (the kernel for numel < 16)."""
        samples = np.empty(n, dtype=np.float64)
        cached = self._next_double_normal
        fresh = n - (cached is not None)
        pairs = (fresh + 1) // 2
        # Each fresh pair draws u1 then u2 with random64(); draw them all at once.
        u = self._unit(2 * pairs, dtypes.float64).tolist()
        k = 0
        for i in range(n):
            if cached is not None:
                samples[i], cached = cached, None
                continue
            u1, u2 = u[k], u[k + 1]
            k += 2
            # NOTE: the order of the uniforms is as in DistributionsHelper.h: the radius uses
            # the second (log1p(-u2) keeps the log finite), the angle the first. Python's math
            # functions are the platform libm PyTorch calls, so they round the same way.
            radius = math.sqrt(-2.0 * math.log1p(-u2))
            theta = 2.0 * math.pi * u1
            cached = radius * math.sin(theta)
            samples[i] = radius * math.cos(theta)
        self._next_double_normal = cached
        return _fma64(samples, np.full(n, std), np.full(n, mean))

    def _normal_fill_float(self, n: int, mean: np.float32, std: np.float32) -> np.ndarray:
        """normal_fill for float32 (numel >= 16): NormalFill16<float> with AVX2 intrinsics."""
        data = self._unit(n, dtypes.float32)
        whole = n - n % 16
        for start in range(0, whole, _CHUNK):
            end = min(start + _CHUNK, whole)
            data[start:end] = _box_muller_ps(data[start:end].reshape(-1, 16), mean, std).ravel()
        if n % 16:
            # The ragged tail: 16 fresh uniforms overwrite the last 16 values, some of which
            # were already transformed.
            tail = self._unit(16, dtypes.float32).reshape(1, 16)
            data[n - 16 :] = _box_muller_ps(tail, mean, std).ravel()
        return data

    def _normal_fill_half(self, n: int, mean: np.float32, std: np.float32,
                          half: np.dtype) -> np.ndarray:
        """normal_fill for float16 and bfloat16: float blocks drawn block by block, then
        rounded to `half`."""
        whole = n - n % 16
        # Drawn 16 per block, which for the whole blocks is the same stream as drawing at once;
        # only the tail differs from the float32 path (no uniforms are drawn for it up front).
        data = np.empty(n, dtype=half)
        for start in range(0, whole, _CHUNK):
            end = min(start + _CHUNK, whole)
            blocks = self._unit(end - start, dtypes.float32).reshape(-1, 16)
            data[start:end] = _box_muller_ps(blocks, mean, std).ravel().astype(half)
        if n % 16:
            tail = self._unit(16, dtypes.float32).reshape(1, 16)
            data[n - 16 :] = _box_muller_ps(tail, mean, std).ravel().astype(half)
        return data

    def _normal_fill_double(self, n: int, mean: float, std: float) -> np.ndarray:
        """normal_fill for float64 (numel >= 16): NormalFill16<double>, scalar libm calls."""
        data = self._unit(n, dtypes.float64)
        whole = n - n % 16
        for start in range(0, whole, _CHUNK):
            end = min(start + _CHUNK, whole)
            data[start:end] = _box_muller_pd(data[start:end].reshape(-1, 16), mean, std).ravel()
        if n % 16:
            tail = self._unit(16, dtypes.float64).reshape(1, 16)
            data[n - 16 :] = _box_muller_pd(tail, mean, std).ravel()
        return data

    def uniform_doubles(self, n: int) -> np.ndarray:
        """n draws of uniform_real_distribution<double>(0, 1), as the CPU kernels draw them."""
        return self._unit(n, dtypes.float64)

    def take_words(self, n: int) -> np.ndarray:
        """The next n raw 32-bit outputs of the stream, as uint32 (the serial samplers of
        random_samplers read them in bulk and hand back what they did not use)."""
        return self._random(n)

    def exponential(self, lambd: float, shape: Sequence[int], dtype: DType) -> np.ndarray:
        """x.exponential_(lambd): exponential_distribution<double> per entry, -1 / lambd *
        log1p(-u) from one uniform double u, cast to dtype."""
        _check_floating(dtype, "exponential_cpu")
        if not lambd > 0.0:
            raise ValueError(f"exponential_ expects lambda > 0.0, but found lambda={_fmt(lambd)}")
        n = _numel(shape)
        out = np.empty(n, dtype=dtype.np)
        for start in range(0, n, _CHUNK):
            u = self._unit(min(_CHUNK, n - start), dtypes.float64)
            # NOTE: the C library's log1p (scalar glibc, as ATen's std::log1p), not NumPy's SIMD
            # one, which differs in the last bit on some 7% of inputs.
            logs = np.fromiter(map(math.log1p, (-u).tolist()), dtype=np.float64, count=u.size)
            with np.errstate(over="ignore"):
                values = (-1.0 / lambd) * logs
                if dtype is not dtypes.float64:
                    values = values.astype(_F32)  # c10::Half converts through float
                out[start : start + _CHUNK] = values
        return _shaped(out, shape)

    def cauchy(self, median: float, sigma: float, shape: Sequence[int],
               dtype: DType) -> np.ndarray:
        """x.cauchy_(median, sigma): cauchy_distribution<double> per entry, median + sigma *
        tan(pi * (u - 0.5)) from one uniform double u, cast to dtype."""
        _check_floating(dtype, "cauchy_cpu")
        n = _numel(shape)
        out = np.empty(n, dtype=dtype.np)
        for start in range(0, n, _CHUNK):
            u = self._unit(min(_CHUNK, n - start), dtypes.float64)
            # the C library's tan (ATen's std::tan), not NumPy's SIMD one
            tans = np.fromiter(map(math.tan, (math.pi * (u - 0.5)).tolist()), dtype=np.float64,
                               count=u.size)
            with np.errstate(over="ignore"):
                values = median + sigma * tans
                if dtype is not dtypes.float64:
                    values = values.astype(_F32)
                out[start : start + _CHUNK] = values
        return _shaped(out, shape)

    # ----------------------------------------------------------------------------- integers

    def randint(self, low: int, high: int, shape: Sequence[int], dtype: DType) -> np.ndarray:
        """torch.randint(low, high, shape, dtype=dtype): uniform integers in [low, high)."""
        low, high = int(low), int(high)
        if not (_SEED_MIN <= low < 2**63 and _SEED_MIN <= high < 2**63):
            raise ValueError("Overflow when unpacking long long")
        if low >= high:
            raise ValueError(
                f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
            )
        if dtype.is_floating_point:
            low, high = _update_from(low, dtype), _update_to(high, dtype)
            if low >= high:
                raise ValueError(
                    "random_ expects 'from' casted to dtype to be less than 'to' casted to "
                    f"dtype, but got from={low} >= to={high}"
                )
            # PyTorch only warns beyond 2**digits, where not every integer is representable.
            lowest, highest = -float(np.finfo(dtype.np).max), float(np.finfo(dtype.np).max)
        else:
            lowest, highest = (0, 1) if dtype is dtypes.bool_ else _int_range(dtype)
        name = _CPP_NAMES[dtype.name]
        if not lowest <= low <= highest:
            raise ValueError(f"from is out of bounds for {name}")
        if not lowest <= high - 1 <= highest:
            raise ValueError(f"to - 1 is out of bounds for {name}")
        if dtype.is_floating_point:
            digits = np.finfo(dtype.np).nmant + 1
            for bound, what in ((low, "from"), (high - 1, "to - 1")):
                if not -(2**digits) <= bound <= 2**digits:
                    warn(f"{what} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision "
                         f"limitations {name} can support discrete uniform distribution only "
                         "within this range. This warning will become an error in version 1.7 "
                         "release, please fix the code in advance")
        n = _numel(shape)
        span = high - low  # fits in uint64: at most 2**64 - 1
        out = np.empty(n, dtype=dtype.np)
        for start in range(0, n, _CHUNK):
            count = min(_CHUNK, n - start)
            # NOTE: PyTorch's public builds switch to 64-bit draws from a range of 2**28,
            # whatever the dtype, to bound the modulo bias (DistributionsHelper.h; Meta's
            # internal builds use 2**32 and only for some dtypes, which is what the source
            # shows first).
            draws = (self._random64(count) if span >= _WIDE_RANGE
                     else self._random(count).astype(_U64))
            # (val % range) + base in uint64 arithmetic, wrapping, then read as int64.
            with np.errstate(over="ignore"):
                offsets = (draws % _U64(span) + _U64(low % 2**64)).view(np.int64)
            out[start : start + count] = offsets.astype(dtype.np)
        return _shaped(out, shape)

    def random(self, shape: Sequence[int], dtype: DType) -> np.ndarray:
        """x.random_() with no bounds: uniform_int_distribution<T> over T's full range, for a
        float type the integers up to 2**digits (a 64-bit draw for int64 and float64)."""
        n = _numel(shape)
        wide = dtype is dtypes.int64 or dtype is dtypes.float64
        draws = self._random64(n) if wide else self._random(n).astype(_U64)
        if dtype is dtypes.bool_:
            return _shaped((draws & _U64(1)).astype(bool), shape)
        if dtype.is_floating_point:
            span = 2 ** (np.finfo(dtype.np).nmant + 1) + 1
        else:
            span = int(np.iinfo(dtype.np).max) + 1
        return _shaped((draws % _U64(span)).astype(dtype.np), shape)

    def randperm(self, n: int, dtype: DType = dtypes.int64) -> np.ndarray:
        """torch.randperm(n): PyTorch's CPU shuffles of 0..n-1 (randperm_cpu)."""
        if n < 0:
            raise ValueError(f"Trying to create tensor with negative dimension {n}: [{n}]")
        _check_randperm_precision(n, dtype)
        if n >= _RANDPERM_MAX:
            return self._randperm_inside_out(n).astype(dtype.np)
        # Step i swaps position i with i + random() % (n - i), for i < n - 1; the draws come in
        # chunks, and the permutation is an array of int64, not a list of Python ints. The
        # compiled kernels walk a chunk's swaps (a Python loop is ~0.5 us a step).
        shuffle = native.kernels.shuffle if native.kernels is not None else None
        perm = np.arange(n, dtype=np.int64)
        walk = perm if shuffle else array.array("q", perm.tobytes())
        for start in range(0, n - 1, _CHUNK):
            count = min(_CHUNK, n - 1 - start)
            draws = self._random(count).astype(np.int64)
            jumps = draws % np.arange(n - start, n - start - count, -1, dtype=np.int64)
            if shuffle:
                shuffle(perm, jumps, start, False)
                continue
            for i, z in enumerate(jumps.tolist(), start):
                walk[i], walk[i + z] = walk[i + z], walk[i]
        if not shuffle:
            perm = np.frombuffer(walk, dtype=np.int64)
        return perm.astype(dtype.np)  # (a copy: owns its data)

    def _randperm_inside_out(self, n: int) -> np.ndarray:
        """The large-n shuffle (n >= (2**32 - 1) // 20, where random() % n would be visibly
        biased): the "inside-out" Fisher-Yates with 64-bit draws, step i swapping positions i
        and random64() % (i + 1) of an array whose entry i is still i. The draws come in chunks
        so that only the result is n long."""
        shuffle = native.kernels.shuffle if native.kernels is not None else None
        perm = np.zeros(n, dtype=np.int64)
        walk = perm if shuffle else array.array("q", bytes(8 * n))
        chunk = 1 << 20
        for start in range(0, n, chunk):
            count = min(chunk, n - start)
            bound = np.arange(start + 1, start + count + 1, dtype=np.uint64)
            swaps = (self._random64(count) % bound).astype(np.int64)
            if shuffle:
                shuffle(perm, swaps, start, True)
                continue
            for i, z in enumerate(swaps.tolist(), start):
                walk[i] = walk[z]
                walk[z] = i
        return perm if shuffle else np.frombuffer(walk, dtype=np.int64)

    def bernoulli(self, p: np.ndarray) -> np.ndarray:
        """torch.bernoulli(p) for a floating array of probabilities, in C order (float16 and
        bfloat16 compared in float32)."""
        p = np.ascontiguousarray(p)
        if p.dtype not in (np.float32, np.float64) and p.dtype not in dtypes.REDUCED_FLOAT_NP:
            short = dtypes.from_numpy(p.dtype).short
            raise NotImplementedError(f"\"bernoulli_tensor_cpu_p_\" not implemented for '{short}'")
        if not np.all((p >= 0) & (p <= 1)):
            raise ValueError(
                "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error "
                "message be improved?  If so, please report an enhancement request to PyTorch.)"
            )
        opmath = dtypes.float64 if p.dtype == np.float64 else dtypes.float32
        flat = p.reshape(-1).astype(opmath.np, copy=False)
        out = np.empty(p.size, dtype=p.dtype)
        for start in range(0, p.size, _CHUNK):
            u = self._unit(min(_CHUNK, p.size - start), opmath)
            out[start : start + _CHUNK] = u < flat[start : start + _CHUNK]
        return out.reshape(p.shape)


# --------------------------------------------------------------------------------- helpers


def _check_randperm_precision(n: int, dtype: DType) -> None:
    """check_supported_max_int_with_precision: n - 1 must fit the dtype, and a float dtype must
    hold every integer up to n - 1 exactly."""
    if dtype is dtypes.bool_:
        raise NotImplementedError("\"randperm\" not implemented for 'Bool'")
    if dtype.category == 1:
        low, high = _int_range(dtype)
        if not low <= max(n - 1, 0) <= high:
            raise ValueError(f"value cannot be converted to type {_C_TYPES[dtype.name]} without "
                             "overflow")
        return
    digits = {"float16": 11, "float32": 24, "float64": 53}.get(dtype.name)
    if digits is not None and n > 2**digits + 1:
        limit = "2049" if digits == 11 else f"2^{digits}+1"
        raise ValueError(f"n cannot be greater than {limit} for {dtype.short} type.")


# The C type names of PyTorch's "value cannot be converted to type ... without overflow".
_C_TYPES = {"uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t",
            "int32": "int32_t", "int64": "int64_t"}



def _init_genrand(seed: int) -> np.ndarray:
    """mt19937's init_genrand, which PyTorch's init_with_uint32 is, for a 32-bit seed."""
    key = [seed]
    for j in range(1, _MT_N):
        prev = key[-1]
        key.append((1812433253 * (prev ^ (prev >> 30)) + j) & 0xFFFFFFFF)
    return np.array(key, dtype=_U32)


def _int_range(dtype: DType) -> tuple[int, int]:
    info = np.iinfo(dtype.np)
    return int(info.min), int(info.max)


def _shaped(values: np.ndarray, shape: Sequence[int]) -> np.ndarray:
    """`values` (a fresh array) given `shape` in place: a reshaped view would be copied again by
    whoever takes it as a tensor's own storage."""
    if values.base is None and values.flags.c_contiguous:
        values.shape = tuple(shape)
        return values
    return values.reshape(shape)


def _numel(shape: Sequence[int]) -> int:
    n = 1
    for size in shape:
        if size < 0:
            raise ValueError(f"Trying to create tensor with negative dimension {size}")
        n *= int(size)
    return n


def _fmt(value: float) -> str:
    """A double as C++'s ostream prints it in PyTorch's messages (%g: 2, 0.1, 3e+38)."""
    return format(float(value), "g")


def _check_floating(dtype: DType, kernel: str) -> None:
    if not dtype.is_floating_point:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{dtype.short}'")


def _scalar(value: float, dtype: DType) -> np.floating:
    """static_cast<scalar_t>(double): c10::Half and c10::BFloat16 convert through float."""
    if dtype is dtypes.float16 or dtype is dtypes.bfloat16:
        return np.float32(value).astype(dtype.np)[()]
    return dtype.np.type(value)


def _int_to_float(value: int, dtype: DType) -> int:
    """static_cast<int64_t>(static_cast<scalar_t>(int64)): the nearest value the dtype holds.

    2**63 does not fit back; like the x86 conversion C++ compiles to, NumPy gives -2**63.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        return int(np.array(value, dtype=np.int64).astype(dtype.np).astype(np.int64))


def _update_from(low: int, dtype: DType) -> int:
    """DistributionTemplates.h update_from: nudge `from` up to a value the dtype holds."""
    from_plus_1 = _int_to_float(low + 1, dtype)
    if from_plus_1 < low:
        magnitude = abs(low + 1).bit_length() - 1
        digits = np.finfo(dtype.np).nmant + 1
        low = from_plus_1 + (1 << (magnitude - digits + 1))
    return low


def _update_to(high: int, dtype: DType) -> int:
    """DistributionTemplates.h update_to: nudge `to` down to a value the dtype holds."""
    to_minus_1 = _int_to_float(high - 1, dtype)
    if to_minus_1 >= high:
        magnitude = abs(high - 1).bit_length() - 1
        digits = np.finfo(dtype.np).nmant + 1
        high = to_minus_1 - (1 << (magnitude - digits + 1))
    return high


# ------------------------------------------------------------------- float32 Box-Muller (AVX2)
#
# On x86-64 PyTorch fills float32 normals with NormalFill16<float>, written with AVX2 intrinsics
# and the Cephes-derived log256_ps and sincos256_ps of aten/src/ATen/native/cpu/avx_mathfun.h
# (the kernel is deliberately not dispatched to AVX-512). They are repeated here in float32,
# one NumPy operation per instruction.
#
# NOTE: GCC builds that file with -mfma and contracts a multiply feeding an add into one fused
# multiply-add (one rounding instead of two). The disassembly of libtorch_cpu.so (2.13) shows
# which: every Horner step, log's `y * z + e * q1`, log's `- z * 0.5` and `+ e * q2`, the three
# `x + y * DP` reduction steps, cos's `y * z - z * 0.5` and sin's `y2 * x + x`. `_fma32`
# emulates them exactly. Their nonzero results are normal floats: |x| >= 2**-25 after log's
# range reduction and the reduced angle stays far above 2**-126, so no intermediate gets near
# float's subnormal range.

_LOG_POLY = (
    7.0376836292e-2,
    -1.1514610310e-1,
    1.1676998740e-1,
    -1.2420140846e-1,
    1.4249322787e-1,
    -1.6668057665e-1,
    2.0000714765e-1,
    -2.4999993993e-1,
    3.3333331174e-1,
)
_LOG_Q1 = -2.12194440e-4
_LOG_Q2 = 0.693359375
_SQRT_HALF = 0.707106781186547524
_FOUR_OVER_PI = 1.27323954473516
_MINUS_DP = (-0.78515625, -2.4187564849853515625e-4, -3.77489497744594108e-8)
_COS_POLY = (2.443315711809948e-005, -1.388731625493765e-003, 4.166664568298827e-002)
_SIN_POLY = (-1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1)
_MANTISSA_MASK = _U32(~0x7F800000 & 0xFFFFFFFF)
_HALF_BITS = _F32(0.5).view(_U32)
_SIGN_SHIFT = 29  # moves bit 2 of the octant to the float sign bit


def _horner32(x: np.ndarray, coefficients: tuple[float, ...]) -> np.ndarray:
    """The polynomial with `coefficients` (highest power first) at x, one fma per step."""
    y = _fma32(x, _F32(coefficients[0]), _F32(coefficients[1]))
    for coefficient in coefficients[2:]:
        y = _fma32(y, x, _F32(coefficient))
    return y


def _log256_ps(x: np.ndarray) -> np.ndarray:
    """log256_ps for x in (0, 1] (Box-Muller never passes 0, negatives or denormals)."""
    bits = x.view(_U32)
    exponent = (bits >> _U32(23)).astype(np.int32) - 127
    # Keep the mantissa with 0.5's exponent: x in [0.5, 1).
    x = ((bits & _MANTISSA_MASK) | _HALF_BITS).view(_F32)
    e = exponent.astype(_F32) + _F32(1)
    below = x < _F32(_SQRT_HALF)
    # Cephes' range fix: for x < sqrt(1/2) use 2x - 1 and one less in the exponent.
    x = (x + _F32(-1)) + np.where(below, x, _F32(0))
    e = e - np.where(below, _F32(1), _F32(0))
    z = x * x
    y = _horner32(x, _LOG_POLY)
    y = y * x
    y = _fma32(y, z, e * _F32(_LOG_Q1))
    y = _fma32(-z, _F32(0.5), y)
    x = x + y
    return _fma32(e, _F32(_LOG_Q2), x)


def _sincos256_ps(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """sincos256_ps for x >= 0 (the Box-Muller angle 2*pi*u); returns (sin, cos)."""
    # Octant j = (int(x * 4/pi) + 1) & ~1, truncating like cvttps2dq.
    j = ((x * _F32(_FOUR_OVER_PI)).astype(np.int32) + 1) & ~1
    y = j.astype(_F32)
    sin_sign = ((j & 4) << _SIGN_SHIFT).astype(_U32)
    cos_sign = ((~(j - 2) & 4) << _SIGN_SHIFT).astype(_U32)
    sine_poly = (j & 2) == 0
    # "Extended precision modular arithmetic": x - j * pi/4 with pi/4 in three parts.
    for dp in _MINUS_DP:
        x = _fma32(y, _F32(dp), x)
    z = x * x
    cos_y = _horner32(z, _COS_POLY) * z
    cos_y = _fma32(cos_y, z, -(z * _F32(0.5))) + _F32(1)
    sin_y = _horner32(z, _SIN_POLY) * z
    sin_y = _fma32(sin_y, x, x)
    # Each output takes one polynomial; the other is selected by subtraction, as the
    # intrinsics do (y - y is +0, which matters only for the sign of a zero).
    sin_from_sin = np.where(sine_poly, sin_y, _F32(0))
    sin_from_cos = np.where(sine_poly, _F32(0), cos_y)
    sine = sin_from_cos + sin_from_sin
    cosine = (cos_y - sin_from_cos) + (sin_y - sin_from_sin)
    sine = (sine.view(_U32) ^ sin_sign).view(_F32)
    cosine = (cosine.view(_U32) ^ cos_sign).view(_F32)
    return sine, cosine


def _box_muller_ps(blocks: np.ndarray, mean: np.float32, std: np.float32) -> np.ndarray:
    """NormalFill16<float> on rows of 16 uniforms: pairs (j, j + 8) give outputs j and j + 8."""
    u1 = _F32(1) - blocks[:, :8]  # [0, 1) -> (0, 1] for the log
    u2 = blocks[:, 8:]
    radius = np.sqrt(_F32(-2) * _log256_ps(u1))
    theta = _F32(2.0 * math.pi) * u2
    sine, cosine = _sincos256_ps(theta)
    normals = np.concatenate([radius * cosine, radius * sine], axis=1)
    return _affine32(normals, mean, std)


def _affine32(x: np.ndarray, mean: np.float32, std: np.float32) -> np.ndarray:
    """fma(x, std, mean) in float32."""
    if std == 1:
        return x + mean  # exact: fma(x, 1, m) rounds x + m once
    return _fma32(x, std, mean, tiny_results=True)


# ------------------------------------------------------------------ float64 Box-Muller (libm)


def _box_muller_pd(blocks: np.ndarray, mean: float, std: float) -> np.ndarray:
    """NormalFill16<double> on rows of 16 uniforms, with the libm PyTorch calls."""
    u1 = 1.0 - blocks[:, :8]
    u2 = blocks[:, 8:]
    radius = np.sqrt(-2.0 * _libm("log")(u1))
    theta = (2.0 * math.pi) * u2
    # PyTorch's compiler merges the two calls into sincos(), which rounds as sin() and cos().
    normals = np.concatenate([radius * _libm("cos")(theta), radius * _libm("sin")(theta)], axis=1)
    if std == 1.0:
        return normals + mean
    return _fma64(normals, np.full_like(normals, std), np.full_like(normals, mean))


# NOTE: PyTorch's double kernels call the platform libm (glibc's log, sin, cos), and only
# correctly rounded functions would agree with any other implementation everywhere. NumPy's
# float64 sin and cos call libm too, but its log has its own SIMD code that differs from glibc's
# in about 0.3% of results. So each function is probed once against Python's math module (which
# is libm) and the NumPy ufunc is used only where it gives identical bits; otherwise the math
# function is mapped over the values (about 0.1 microsecond each).
_LIBM: dict[str, Callable[[np.ndarray], np.ndarray]] = {}
_PROBE_SIZE = 4096


def _libm(name: str) -> Callable[[np.ndarray], np.ndarray]:
    if name not in _LIBM:
        ufunc = getattr(np, name)
        scalar = getattr(math, name)
        probe = np.random.default_rng(0).random(_PROBE_SIZE)
        probe = 1.0 - probe if name == "log" else probe * (2.0 * math.pi)
        reference = np.fromiter(map(scalar, probe.tolist()), np.float64, probe.size)
        if np.array_equal(ufunc(probe).view(_U64), reference.view(_U64)):
            _LIBM[name] = ufunc
        else:

            def mapped(values: np.ndarray, scalar: Callable[[float], float] = scalar) -> np.ndarray:
                flat = np.fromiter(map(scalar, values.ravel().tolist()), np.float64, values.size)
                return flat.reshape(values.shape)

            _LIBM[name] = mapped
    return _LIBM[name]


# ------------------------------------------------------------------------ fused multiply-add


def _fma32(
    a: np.ndarray,
    b: np.ndarray | np.float32,
    c: np.ndarray | np.float32,
    tiny_results: bool = False,
) -> np.ndarray:
    """fmaf(a, b, c) elementwise on float32 operands: a * b + c rounded once.

    `b` and `c` are arrays of a's shape or scalars. The product of two floats is exact in
    double; the sum is rounded once to double and then to float. That double rounding differs
    from one rounding only when the double sum lands exactly halfway between two floats while
    the exact sum does not; the exact remainder of the double sum (a two-sum) then says which
    way to go. Pass `tiny_results` unless the nonzero results are known to be normal floats.
    """
    total = np.multiply(a, b, dtype=np.float64)
    total += c
    result = total.astype(_F32)
    # A double halfway between two normal floats has the 29 bits below float's mantissa equal
    # to 1000...0. Results near float's subnormal range go to the general test as well.
    low_bits = np.bitwise_and(total.view(_U64), _U64(2**29 - 1))
    suspect = np.equal(low_bits, _U64(2**28))
    if tiny_results:
        suspect |= np.abs(result) < _F32_TINY
    suspects = np.flatnonzero(suspect)
    if suspects.size == 0:
        return result
    t = total.reshape(-1)[suspects]
    residual = _two_sum_error(_pick(a, suspects) * _pick(b, suspects), _pick(c, suspects), t)
    # Only an inexact double sum can have been rounded the wrong way.
    inexact = np.flatnonzero(residual != 0)
    if inexact.size == 0:
        return result
    flat_result = result.reshape(-1)
    index, t, residual = suspects[inexact], t[inexact], residual[inexact]
    r = flat_result[index]
    up = t > r
    # The float on the other side of the double sum, and whether the sum is halfway between.
    other = np.nextafter(r, np.where(up, _F32(np.inf), _F32(-np.inf)))
    halfway = (t != r) & (r.astype(np.float64) + other.astype(np.float64) == 2.0 * t)
    # Past the halfway point, towards `other`, when the residual points that way.
    beyond = halfway & ((residual > 0) == up)
    flat_result[index[beyond]] = other[beyond]
    return result


_F32_TINY = _F32(2.0**-125)  # twice float's smallest normal: keeps halfway sums of tiny results


def _pick(x: np.ndarray | np.float32, flat_index: np.ndarray) -> np.ndarray:
    """x (an array or a scalar standing for a full array) at flat positions, as float64."""
    if np.ndim(x) == 0:
        return np.full(flat_index.size, float(x))
    return np.asarray(x).reshape(-1)[flat_index].astype(np.float64)


def _two_sum_error(a: np.ndarray, b: np.ndarray, s: np.ndarray) -> np.ndarray:
    """The exact rounding error of s = fl(a + b) (Knuth's TwoSum)."""
    bb = s - a
    return (a - (s - bb)) + (b - bb)


_SPLITTER = float(2**27 + 1)  # Veltkamp's constant: splits a double into two 26-bit halves


def _fma64(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """fma(a, b, c) elementwise on float64 arrays: a * b + c rounded once.

    NOTE: NumPy has no fma. The exact a * b + c is carried as an unevaluated sum r + w + d of
    doubles (Dekker's product, Knuth's sums), where r = fl(s + v) is the plain double sum of the
    parts; r is the correctly rounded result unless w + d reaches half an ulp of r. Those rare
    elements, and ones whose product could underflow or overflow the splitting, are computed
    exactly with Python's rationals.
    """
    a, b, c = (np.asarray(v, dtype=np.float64) for v in (a, b, c))
    with np.errstate(over="ignore", invalid="ignore"):
        p = a * b
        a_hi, a_lo = _split(a)
        b_hi, b_lo = _split(b)
        e = ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo  # a*b == p + e
        s = p + c
        t = _two_sum_error(p, c, s)
        v = t + e
        d = _two_sum_error(t, e, v)
        r = s + v
        w = _two_sum_error(s, v, r)  # a*b + c == r + w + d
        gap = np.spacing(np.abs(r))
        # Below a power of two the next double down is half as far.
        gap = np.where(np.frexp(np.abs(r))[0] == 0.5, gap / 2, gap)
        unsure = (d != 0) & (np.abs(w + d) >= 0.5 * gap * (1 - 2.0**-40))
        unsure |= ~np.isfinite(r + w + d + e)
        unsure |= (np.abs(p) < 2.0**-960) & (a != 0) & (b != 0)
    # A zero result keeps IEEE's sign rules for a sum: p + c has them (p is exact then).
    result = np.where(r == 0, p + c, r)
    for index in map(tuple, np.argwhere(unsure)):  # (argwhere: a 0-d array's index is ())
        result[index] = _exact_fma(float(a[index]), float(b[index]), float(c[index]))
    return result


def _split(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    scaled = _SPLITTER * x
    hi = scaled - (scaled - x)
    return hi, x - hi


def _exact_fma(a: float, b: float, c: float) -> float:
    if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c)):
        return a * b + c  # IEEE infinities and NaNs propagate the same way through an fma
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:
        return a * b + c  # a zero's sign follows the sum's rules
    try:
        return float(exact)  # int / int division in Python rounds correctly
    except OverflowError:  # (the Fraction's sign: copysign would convert it, overflowing)
        return math.inf if exact > 0 else -math.inf


default_generator = Generator()
"""The process-wide generator, seeded nondeterministically at import as PyTorch's is."""
