"""oneDNN's AVX-512 `eltwise_gelu_erf`, which PyTorch 2.13 uses for F.gelu on contiguous float32
tensors of two or more elements while torch.backends.mkldnn is enabled (the default).

oneDNN's JIT injector (jit_uni_eltwise_injector.cpp, gelu_erf_minimax_approx_compute_vector_fwd)
evaluates erf(x / sqrt 2) as a degree-5 polynomial in |x|, picked from 24 pieces by the bits of
|x|, with fused multiply-adds; then gelu = (x * (1 + erf)) * 0.5. Every element goes through
the same code (the tail uses masked vector instructions).
"""

from __future__ import annotations

import numpy as np

from gradsh.engine.vecmath.fp import F32, fma32, where

# The piecewise minimax coefficients, degree 0 to 5, from oneDNN (Apache-2.0) as float32 bits.
_GELU_ERF_POLY = np.array([
    [
        0xa6f2cb94, 0x32827792, 0x3381cc0c, 0x34523d4a, 0x351ac44d, 0x35f36d88,
        0x36ee8229, 0x37b8a3bb, 0x3867a213, 0x3940033b, 0x3a2a5a1d, 0x3ae35863,
        0x3b7828f2, 0x3c08b14b, 0x3c515ed3, 0xbb503236, 0xbd8d8e5e, 0xbe8abcd9,
        0xbf0c19a2, 0xbeccb328, 0x3e176ced, 0x3f470d99, 0x3f7abb28, 0x3f800000,
        0x00000000,
    ],
    [
        0x3f4c422a, 0x3f4c421f, 0x3f4c4207, 0x3f4c41cb, 0x3f4c413b, 0x3f4c3fad,
        0x3f4c3a2f, 0x3f4c2d40, 0x3f4c146a, 0x3f4bc341, 0x3f4ad08c, 0x3f48f8cf,
        0x3f45fac7, 0x3f404e07, 0x3f3b980f, 0x3f48dff3, 0x3f78b21b, 0x3fbb0704,
        0x40019c32, 0x3fe536d6, 0x3f81331e, 0x3e6c8684, 0x3c98f936, 0x00000000,
        0x3f800000,
    ],
    [
        0xb62173f4, 0x3735e4cf, 0x37f2ff89, 0x388c23be, 0x3917535c, 0x39ab2ab0,
        0x3a60fadb, 0x3af9b960, 0x3b6e5491, 0x3c0a4ec5, 0x3ca5aa8c, 0x3d2138d9,
        0x3d8737d4, 0x3ddfb660, 0x3e0f27ab, 0x3d94004b, 0xbe0efdeb, 0xbf1d96c3,
        0xbf89db58, 0xbf6d9897, 0xbef69fb8, 0xbdc4f8a8, 0xbbde6422, 0x00000000,
        0x00000000,
    ],
    [
        0xbe081a19, 0xbe084570, 0xbe08639b, 0xbe089837, 0xbe08f409, 0xbe09ab95,
        0xbe0b66d0, 0xbe0e400a, 0xbe124df8, 0xbe1bde02, 0xbe2f19c9, 0xbe4931bf,
        0xbe685fbc, 0xbe89c95f, 0xbe96cbca, 0xbe8044aa, 0xbe0550f2, 0x3dcfd6a1,
        0x3e94c826, 0x3e79345f, 0x3decec91, 0x3ca46568, 0x3aa1e00a, 0x00000000,
        0x00000000,
    ],
    [
        0xba3d61db, 0x39f097a3, 0x3a5845dc, 0x3ab1fa35, 0x3b0cefb8, 0x3b653ab6,
        0x3bcae527, 0x3c221712, 0x3c6c5840, 0x3cc0a703, 0x3d1dcc19, 0x3d63656d,
        0x3d955907, 0x3dbf9910, 0x3dd53f69, 0x3db7dcef, 0x3d639ebe, 0xba6ede48,
        0xbd22be69, 0xbd041cf1, 0xbc64f5ab, 0xbb097a32, 0xb8ebf380, 0x00000000,
        0x00000000,
    ],
    [
        0x3cb7d80c, 0x3c9b6050, 0x3c978d11, 0x3c92e850, 0x3c8d058b, 0x3c848454,
        0x3c6cd623, 0x3c4c824b, 0x3c2a7935, 0x3be0b390, 0x3b0651ac, 0xbb232f53,
        0xbbd42fa0, 0xbc2c5366, 0xbc492c9e, 0xbc2a7aa6, 0xbbd55d04, 0xba823a76,
        0x3b102aa8, 0x3ae25a7e, 0x3a31f792, 0x38b84375, 0x3689bb5a, 0x00000000,
        0x00000000,
    ],
], dtype=np.uint32).view(np.float32)
_IDX_BIAS = np.int32(np.uint32(0xC21FFFFF).view(np.int32))
_RBOUND = np.uint32(0x40B15CEE).view(F32)


def gelu_erf(x: np.ndarray) -> np.ndarray:
    """oneDNN eltwise_gelu_erf on float32 `x`."""
    x = np.ascontiguousarray(x, F32)
    with np.errstate(all="ignore"):
        bits = x.view(np.int32)
        pos_bits = bits & np.int32(0x7FFFFFFF)
        pos = pos_bits.view(F32)
        idx = (pos_bits + _IDX_BIAS) >> 21  # int32 wrap-around, arithmetic shift
        idx = np.clip(idx, 1, 24)
        idx = where(_RBOUND < pos, 23, idx)
        pol = _GELU_ERF_POLY[5][idx]
        for degree in range(4, -1, -1):
            pol = fma32(pol, pos, _GELU_ERF_POLY[degree][idx])
        pol = (pol.view(np.int32) ^ (bits & np.int32(-2**31))).view(F32)
        out = (x * (pol + F32(1.0))) * F32(0.5)
    return out


def _bits_f32(hex_bits: int) -> np.float32:
    return np.uint32(hex_bits).view(F32)


_LN_FLT_MIN = _bits_f32(0xC2AEAC50)
_LN_FLT_MAX = _bits_f32(0x42B17218)
_LOG2EF = _bits_f32(0x3FB8AA3B)
_LN2F = _bits_f32(0x3F317218)
_EXP_POL = [_bits_f32(b) for b in (0x3F7FFFFB, 0x3EFFFEE3, 0x3E2AAD40, 0x3D2B9D0D, 0x3C07CFCE)]
_AS_P = _bits_f32(0x3EA7BA05)
_ONE_OVER_SQRT_TWO = _bits_f32(0x3F3504F3)
_ONE_OVER_SQRT_PI = _bits_f32(0x3F106EBA)
_AS_POL = [_bits_f32(b) for b in (0x3E827906, 0xBE91A98E, 0x3FB5F0E3, 0xBFBA00E3, 0x3F87DC22)]
ONE, HALF = F32(1.0), F32(0.5)


def _minps(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """x86 minps: the second operand unless a < b (so a nan in `a` gives `b`)."""
    return where(a < b, a, b)


def _maxps(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return where(a > b, a, b)


def exp(x: np.ndarray) -> np.ndarray:
    """oneDNN's exp injector (exp_compute_vector_fwd)."""
    x = np.asarray(x, F32)
    with np.errstate(all="ignore"):
        below = x < _LN_FLT_MIN
        x = _maxps(_minps(x, _LN_FLT_MAX), _LN_FLT_MIN)
        fx = np.floor(x * _LOG2EF + HALF)
        r = fma32(-fx, _LN2F, x)
        n = (fx - ONE).astype(np.int32)
        scale = ((n + 127) << 23).view(F32)
        scale = where(below, F32(0.0), scale)
        p = np.full_like(r, _EXP_POL[4])
        for c in _EXP_POL[3::-1]:
            p = fma32(p, r, c)
        p = fma32(p, r, ONE)
        return ((p * scale) * F32(2.0)).astype(F32, copy=False)


def gelu_erf_backward(grad: np.ndarray, x: np.ndarray) -> np.ndarray:
    """oneDNN eltwise_gelu_erf backward: grad * (0.5 + 0.5 erf(x / sqrt 2) + x pdf(x)), with the
    Abramowitz-Stegun erf and oneDNN's exp."""
    s = np.ascontiguousarray(x, F32)
    with np.errstate(all="ignore"):
        r = s * _ONE_OVER_SQRT_TWO
        q = exp(-(r * r))
        t = (r * _ONE_OVER_SQRT_PI) * q
        w = ONE / fma32(_AS_P, np.abs(r), ONE)
        qw = -q * w
        pol = np.full_like(w, _AS_POL[4])
        for c in _AS_POL[3::-1]:
            pol = fma32(pol, w, c)
        erf = fma32(qw, pol, ONE)
        erf = (erf.view(np.int32) ^ (r.view(np.int32) & np.int32(-2**31))).view(F32)
        res = fma32(erf, HALF, t + HALF)
        return (np.asarray(grad, F32) * res).astype(F32, copy=False)


# ---- tanh and logistic (the LSTM cell's post-GEMM, jit_uni_lstm_cell_postgemm_fwd) ----------

# tanh_compute_vector_fwd: one degree-6 polynomial per half binade of |x| (32 of them), picked
# by the bits of |x| - 0x1p-12, evaluated at |x| with its top 10 bits cleared; x itself below
# 0x39ddb3d7, 1 from 0x41102cb3 on; the sign put back. Coefficients (degree 0 to 6, one row
# each) as float32 bits, from oneDNN v3.12 (Apache-2.0).
_TANH_POLY = np.array([
    [
        0x00000000, 0x39bfffff, 0x39ffffff, 0x3a3ffffe, 0x3a7ffffb, 0x3abffff7,
        0x3affffeb, 0x3b3fffdc, 0x3b7fffab, 0x3bbfff70, 0x3bfffeab, 0x3c3ffdc0,
        0x3c7ffaab, 0x3cbff701, 0x3cffeaad, 0x3d3fdc08, 0x3d7faacd, 0x3dbf7081,
        0x3dfeacc9, 0x3e3dc7fd, 0x3e7acbf5, 0x3eb77a9f, 0x3eec9a9f, 0x3f22991f,
        0x3f42f7d6, 0x3f67b7cc, 0x3f76ca83, 0x3f7ebbe9, 0x3f7fd40c, 0x3f7fff32,
        0x3f7ffffc, 0x3f800000,
    ],
    [
        0x3f800000, 0x3f800018, 0x3f7fffe8, 0x3f7fffda, 0x3f7fffdc, 0x3f7fffdc,
        0x3f7fffac, 0x3f7fff70, 0x3f7ffeec, 0x3f7ffdc0, 0x3f7ffbed, 0x3f7ff704,
        0x3f7feff5, 0x3f7fdbca, 0x3f7fbfff, 0x3f7f7041, 0x3f7f009b, 0x3f7dc36c,
        0x3f7c0aa8, 0x3f7734b8, 0x3f70a4de, 0x3f5f1fd8, 0x3f495493, 0x3f18b9ec,
        0x3ed706cb, 0x3e390b06, 0x3d90b11f, 0x3c21a053, 0x3aaf7fdb, 0x37ccc1a3,
        0x355c6733, 0x00000000,
    ],
    [
        0x00000000, 0xbe4e0ff1, 0x3d25b1b1, 0x3d6b6dab, 0x3c9fb1d5, 0xbabff06f,
        0x3c07b3f6, 0xbb3fc1bc, 0x3a9f5921, 0xbbbf06f2, 0xbbb0f402, 0xbc47db9e,
        0xbc73d5e7, 0xbca25bda, 0xbcfca780, 0xbd40e07c, 0xbd7dab03, 0xbdbe4a0f,
        0xbdfb14a5, 0xbe36cc8d, 0xbe6bd102, 0xbe9fe7c5, 0xbeba0f10, 0xbec206a8,
        0xbea3c388, 0xbe277d62, 0xbd8b7960, 0xbc209f49, 0xbaad44ca, 0xb7c6eeac,
        0xb663aa41, 0x00000000,
    ],
    [
        0x00000000, 0x45b3ae96, 0xc414eb20, 0xc450e02e, 0xc3152b4e, 0xbead2f56,
        0xc2162e02, 0xbeb4bd5a, 0xc11a59a4, 0xbed2f507, 0xc020d32c, 0x3dd0f506,
        0xbf2a75e2, 0xbff950e3, 0xbed47334, 0xbe809b8c, 0xbeb64532, 0xbe961a5b,
        0xbe9b63ac, 0xbea0d4b2, 0xbe828a77, 0xbe378612, 0xbdc20908, 0x3d2d3957,
        0x3dd46e89, 0x3db3f629, 0x3d2c5e7b, 0x3bd20403, 0x3a59dfae, 0x3770af45,
        0x372cc014, 0x00000000,
    ],
    [
        0x00000000, 0xcc981a1b, 0x4a7edd3d, 0x4ab1007c, 0x48fedd9c, 0x41a557b5,
        0x477ee32a, 0x422557f5, 0x45ff3ce4, 0x42a55641, 0x446e0867, 0xc33dc19a,
        0x42915214, 0x43af4fad, 0x4110fe88, 0xc1099b75, 0x3fc8a8dc, 0xbfbeaef5,
        0xbe365aad, 0x3f4d9652, 0x3ddfa08f, 0x3e34e9b8, 0x3e2d07a6, 0x3dc63567,
        0x3cdaeb78, 0xbcd17537, 0xbc92829c, 0xbb43ab99, 0xb9b471dd, 0xb6baad5a,
        0xb78bafc7, 0x00000000,
    ],
    [
        0x00000000, 0x52f688d5, 0xd0505c72, 0xd08f98e3, 0xce505cc9, 0xc7162b8a,
        0xcc5061d6, 0xc7162bdf, 0xca50b37f, 0xc7162a3a, 0xc8422086, 0x471a714e,
        0xc5ece1f1, 0xc70e3d90, 0xc3eba94a, 0x43e0c424, 0xc21f4552, 0x42217cc8,
        0x405e7dc4, 0xc10dd401, 0x3e96b602, 0xbd1a6d2f, 0xbd393883, 0xbd674682,
        0xbd310016, 0xb961e269, 0x3ba32495, 0x3a7680d5, 0x38b3173c, 0x35a9deea,
        0x375c3f2a, 0x00000000,
    ],
    [
        0x00000000, 0xd8995ed1, 0x558285ea, 0x55b2cd69, 0x53028625, 0x4bc9991f,
        0x5082898a, 0x4b4999b3, 0x4e02c07c, 0x4ac99764, 0x4b72c822, 0xca40c0e1,
        0x489413e4, 0x49b12224, 0x46134c4e, 0xc60c2d57, 0x43c83910, 0xc3c872d1,
        0xc186bc9e, 0x42325bc3, 0xbf2ffa4a, 0x3d9a203c, 0xbc545a43, 0xbae08fee,
        0x3c80225d, 0x3b1fd1df, 0xba36b9d1, 0xb91de544, 0xb71f100f, 0xb408e2ed,
        0xb685fec8, 0x00000000,
    ],
], dtype=np.uint32).view(F32)
_TANH_IDX_BIAS = np.uint32(0x39800000)
_TANH_IDX_MASK = np.uint32(0xFFC00000)
_TANH_LINEAR = _bits_f32(0x39DDB3D7)
_TANH_SATURATION = _bits_f32(0x41102CB3)
_SIGN = np.uint32(0x80000000)


def tanh(x: np.ndarray) -> np.ndarray:
    """oneDNN's tanh injector (AVX-512: the table in two registers, vpermt2ps)."""
    x = np.ascontiguousarray(x, F32)
    bits = x.view(np.uint32)
    magnitude = bits & ~_SIGN
    ax = magnitude.view(F32)
    with np.errstate(all="ignore"):
        idx = ((magnitude - _TANH_IDX_BIAS) & _TANH_IDX_MASK) >> np.uint32(22)
        idx &= np.uint32(31)  # vpermt2ps reads the low 5 bits
        r = ax - (magnitude & _TANH_IDX_MASK).view(F32)
        p = _TANH_POLY[6][idx]
        for degree in range(5, -1, -1):
            p = fma32(p, r, _TANH_POLY[degree][idx])
        out = where(_TANH_SATURATION > ax, p, ONE)
        out = where(_TANH_LINEAR > ax, ax, out)
    return (np.ascontiguousarray(out, F32).view(np.uint32) ^ (bits & _SIGN)).view(F32)


def logistic(x: np.ndarray) -> np.ndarray:
    """oneDNN's logistic injector: e = exp(-|x|) (the exp injector), y = e / (e + 1), then
    y for negative x and 1 - y otherwise."""
    x = np.ascontiguousarray(x, F32)
    bits = x.view(np.uint32)
    e = exp((bits | _SIGN).view(F32))
    with np.errstate(all="ignore"):
        y = e / (e + ONE)
        return where((bits & _SIGN) != 0, y, ONE - y)
