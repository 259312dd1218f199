// A random bzoj1188 input of one case (2 <= n <= 21 bottles of 0..10 beans), seeded
// from the clock and the pid: the generator online-judge-tools' `oj g/i` loop runs
// once per case in benches/audit_throughput.sh.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    srand((unsigned)(ts.tv_nsec ^ (getpid() << 16)));
    int n = 2 + rand() % 20;
    printf("1\n%d\n", n);
    for (int i = 0; i < n; i++) printf("%d%c", rand() % 11, i + 1 < n ? ' ' : '\n');
    return 0;
}
