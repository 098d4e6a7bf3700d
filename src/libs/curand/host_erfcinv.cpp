// The host erfcinv of the CUDA toolkit (crt/math_functions.hpp, the host definitions a host
// compiler gets), which NVIDIA's host generators use for their inverse-CDF normals
// (_curand_normal_icdf with HOST_HAVE_ERFCINVF: erfcinvf(a) is erfcinv(a) rounded to float).
// The rational approximations are J. M. Blair, C. A. Edwards and J. H. Johnson's, "Rational
// Chebyshev Approximations for the Inverse of the Error Function", Mathematics of Computation
// 30 (1976), tables 18, 39 and 59, evaluated in the toolkit's order (Horner, p / (q t)).
// Only the arguments the generators pass are handled: 0 < a < 2, never below 1e-100 (the
// smallest is 2^-53), so table 82 and the special values are left out.
#include <cmath>
#include <cstddef>

#include "libs/curand/generator.h"

namespace cucpu::curand {
namespace {

// p = c[0]; p = p * t + c[i]: the toolkit's Horner steps.
template <size_t n>
double horner(const double (&c)[n], double t) {
  double p = c[0];
  for (size_t i = 1; i < n; ++i) p = p * t + c[i];
  return p;
}

// q = t + c[0]; q = q * t + c[i]: the monic denominators.
template <size_t n>
double horner_monic(const double (&c)[n], double t) {
  double q = t + c[0];
  for (size_t i = 1; i < n; ++i) q = q * t + c[i];
  return q;
}

// Table 59, in t = 1 / sqrt(-log(a)).
double table59(double t) {
  static constexpr double p[] = {2.7834010353747001060e-3, 8.6030097526280260580e-1, 2.1371214997265515515e+0,
                                 3.1598519601132090206e+0, 3.5780402569085996758e+0, 1.5335297523989890804e+0,
                                 3.4839207139657522572e-1, 5.3644861147153648366e-2, 4.3836709877126095665e-3,
                                 1.3858518113496718808e-4, 1.1738352509991666680e-6};
  static constexpr double q[] = {2.2859981272422905412e+0, 4.3859045256449554654e+0, 4.6632960348736635331e+0,
                                 3.9846608184671757296e+0, 1.6068377709719017609e+0, 3.5609087305900265560e-1,
                                 5.3963550303200816744e-2, 4.3873424022706935023e-3, 1.3858762165532246059e-4,
                                 1.1738313872397777529e-6};
  return horner(p, t) / (horner_monic(q, t) * t);
}

double host_erfinv(double a) {
  double fa = std::fabs(a);
  if (fa >= 0.9375) {
    double t = table59(1.0 / std::sqrt(-std::log1p(-fa)));
    return a < 0.0 ? -t : t;
  }
  if (fa >= 0.75) {  // table 39
    static constexpr double p[] = {.21489185007307062000e+0,  -.64200071507209448655e+1, .29631331505876308123e+2,
                                   -.47644367129787181803e+2, .34810057749357500873e+2,  -.12954198980646771502e+2,
                                   .25349389220714893917e+1,  -.24758242362823355486e+0, .94897362808681080020e-2};
    static constexpr double q[] = {-.12831383833953226499e+2, .41409991778428888716e+2,  -.53715373448862143349e+2,
                                   .33880176779595142685e+2,  -.11315360624238054876e+2, .20369295047216351160e+1,
                                   -.18611650627372178511e+0, .67544512778850945940e-2};
    double t = a * a - .87890625;
    return a * (horner(p, t) / horner_monic(q, t));
  }
  // table 18
  static constexpr double p[] = {-.23886240104308755900e+2, .45560204272689128170e+3,  -.22977467176607144887e+4,
                                 .46631433533434331287e+4,  -.43799652308386926161e+4, .19007153590528134753e+4,
                                 -.30786872642313695280e+3};
  static constexpr double q[] = {-.83288327901936570000e+2, .92741319160935318800e+3,  -.35088976383877264098e+4,
                                 .59039348134843665626e+4,  -.48481635430048872102e+4, .18997769186453057810e+4,
                                 -.28386514725366621129e+3};
  double t = a * a - .5625;
  return a * (horner(p, t) / horner_monic(q, t));
}

}  // namespace

double host_erfcinv(double a) {
  if (a >= 0.0625) return host_erfinv(1.0 - a);
  return table59(1.0 / std::sqrt(-std::log(a)));
}

}  // namespace cucpu::curand
