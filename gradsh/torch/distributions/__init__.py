"""torch.distributions: parameterised probability distributions, their sampling (PyTorch's numbers
after a seed), log-densities, entropies and KL divergences, laid out as PyTorch lays them out
(one module per distribution, constraints, kl, utils).

Served: Bernoulli, Beta, Binomial, Categorical, Cauchy, Chi2, Dirichlet, Exponential,
FisherSnedecor, Gamma, Geometric, Gumbel, HalfCauchy, HalfNormal, Independent, InverseGamma,
Kumaraswamy, Laplace, LogNormal, MixtureSameFamily, Multinomial, MultivariateNormal, Normal,
OneHotCategorical (and its StraightThrough variant), Pareto, Poisson, RelaxedBernoulli,
RelaxedOneHotCategorical, StudentT, Uniform, Weibull, TransformedDistribution with the common
transforms. The others PyTorch has raise `gradsh does not implement torch.distributions.NAME yet`.
"""

from __future__ import annotations

from gradsh.torch._missing import module_getattr
from gradsh.torch.distributions import constraints, kl, transforms, utils
from gradsh.torch.distributions.bernoulli import Bernoulli
from gradsh.torch.distributions.beta import Beta
from gradsh.torch.distributions.binomial import Binomial
from gradsh.torch.distributions.categorical import Categorical
from gradsh.torch.distributions.cauchy import Cauchy
from gradsh.torch.distributions.chi2 import Chi2
from gradsh.torch.distributions.dirichlet import Dirichlet
from gradsh.torch.distributions.distribution import Distribution
from gradsh.torch.distributions.exp_family import ExponentialFamily
from gradsh.torch.distributions.exponential import Exponential
from gradsh.torch.distributions.fishersnedecor import FisherSnedecor
from gradsh.torch.distributions.gamma import Gamma
from gradsh.torch.distributions.geometric import Geometric
from gradsh.torch.distributions.gumbel import Gumbel
from gradsh.torch.distributions.half_cauchy import HalfCauchy
from gradsh.torch.distributions.half_normal import HalfNormal
from gradsh.torch.distributions.independent import Independent
from gradsh.torch.distributions.inverse_gamma import InverseGamma
from gradsh.torch.distributions.kl import kl_divergence, register_kl
from gradsh.torch.distributions.kumaraswamy import Kumaraswamy
from gradsh.torch.distributions.laplace import Laplace
from gradsh.torch.distributions.lkj_cholesky import LKJCholesky
from gradsh.torch.distributions.log_normal import LogNormal
from gradsh.torch.distributions.lowrank_multivariate_normal import LowRankMultivariateNormal
from gradsh.torch.distributions.mixture_same_family import MixtureSameFamily
from gradsh.torch.distributions.multinomial import Multinomial
from gradsh.torch.distributions.multivariate_normal import MultivariateNormal
from gradsh.torch.distributions.normal import Normal
from gradsh.torch.distributions.one_hot_categorical import (
    OneHotCategorical,
    OneHotCategoricalStraightThrough,
)
from gradsh.torch.distributions.pareto import Pareto
from gradsh.torch.distributions.poisson import Poisson
from gradsh.torch.distributions.relaxed_bernoulli import RelaxedBernoulli
from gradsh.torch.distributions.relaxed_categorical import RelaxedOneHotCategorical
from gradsh.torch.distributions.studentT import StudentT
from gradsh.torch.distributions.transformed_distribution import TransformedDistribution
from gradsh.torch.distributions.transforms import (
    AbsTransform,
    AffineTransform,
    ComposeTransform,
    ExpTransform,
    PowerTransform,
    SigmoidTransform,
    SoftplusTransform,
    TanhTransform,
    Transform,
    identity_transform,
)
from gradsh.torch.distributions.uniform import Uniform
from gradsh.torch.distributions.von_mises import VonMises
from gradsh.torch.distributions.weibull import Weibull
from gradsh.torch.distributions.wishart import Wishart

__getattr__ = module_getattr("torch.distributions")

__all__ = [
    "AbsTransform", "AffineTransform", "Bernoulli", "Beta", "Binomial", "Categorical", "Cauchy",
    "Chi2", "ComposeTransform", "Dirichlet", "Distribution",
    "ExpTransform", "Exponential", "ExponentialFamily", "FisherSnedecor", "Gamma", "Geometric",
    "Gumbel", "HalfCauchy", "HalfNormal", "Independent", "InverseGamma", "Kumaraswamy",
    "Laplace", "LogNormal", "MixtureSameFamily", "Multinomial", "MultivariateNormal",
    "Normal", "OneHotCategorical", "OneHotCategoricalStraightThrough", "Pareto", "Poisson",
    "PowerTransform", "RelaxedBernoulli", "RelaxedOneHotCategorical", "SigmoidTransform",
    "SoftplusTransform", "StudentT", "TanhTransform", "Transform", "TransformedDistribution",
    "Uniform", "Weibull", "constraints", "identity_transform", "kl", "kl_divergence",
    "register_kl", "transforms", "utils", "LowRankMultivariateNormal", "VonMises",
    "LKJCholesky", "Wishart",
]
