// HDU 1850, Being a Good Boy in Spring Festival: the number of piles p with
// p ^ x < p, x the xor of all piles.
#include <cstdio>

int a[105];

int main() {
    int n;
    while (scanf("%d", &n) == 1 && n != 0) {
        int x = 0;
        for (int i = 0; i < n; i++) {
            scanf("%d", &a[i]);
            x ^= a[i];
        }
        int count = 0;
        for (int i = 0; i < n; i++)
            if ((a[i] ^ x) < a[i]) count++;
        printf("%d\n", count);
    }
    return 0;
}
