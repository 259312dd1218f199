// The uncontained baseline of benches/audit_throughput.sh: starts PROGRAM N times with
// posix_spawn, its standard input from INPUT and its standard output read whole
// through a pipe, one run at a time, and prints the runs per second.
//   spawn_loop N INPUT PROGRAM
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: spawn_loop N INPUT PROGRAM\n"); return 2; }
    int n = atoi(argv[1]);
    char *args[] = {argv[3], NULL};
    static char buf[1 << 16];
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int i = 0; i < n; i++) {
        int in = open(argv[2], O_RDONLY | O_CLOEXEC);
        int p[2];
        if (in < 0 || pipe2(p, O_CLOEXEC) != 0) { perror("spawn_loop"); return 1; }
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, in, 0);
        posix_spawn_file_actions_adddup2(&fa, p[1], 1);
        pid_t pid;
        if (posix_spawn(&pid, argv[3], &fa, NULL, args, environ) != 0) { perror("spawn"); return 1; }
        posix_spawn_file_actions_destroy(&fa);
        close(in);
        close(p[1]);
        while (read(p[0], buf, sizeof buf) > 0) {}
        close(p[0]);
        int st;
        waitpid(pid, &st, 0);
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    double s = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
    printf("%.1f\n", n / s);
    return 0;
}
