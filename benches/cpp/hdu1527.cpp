// HDU 1527 (Wythoff's game): with a <= b and k = b - a, the first player loses iff
// a == floor(k * phi) = (k + isqrt(5 k^2)) / 2, computed in exact integers
// (5 k^2 <= 5 * 10^18 fits in a signed 64-bit integer).
#include <cmath>
#include <cstdio>

static long long isqrt(long long n) {
    long long s = (long long)std::sqrt((double)n);
    while (s * s > n) s--;
    while ((s + 1) * (s + 1) <= n) s++;
    return s;
}

int main() {
    long long a, b;
    while (scanf("%lld %lld", &a, &b) == 2) {
        if (a > b) { long long t = a; a = b; b = t; }
        long long k = b - a;
        puts(a == (k + isqrt(5 * k * k)) / 2 ? "0" : "1");
    }
    return 0;
}
