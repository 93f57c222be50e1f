/* A plain backtracking Sudoku solver that speaks sudoku-bench's line protocol.
 *
 * A test fixture: bitmasks per row, column and box, branching on the empty
 * cell with the fewest candidates, counting solutions up to the request's
 * limit, honouring budget= (nodes) and time= (seconds), reporting time_us,
 * nodes and guesses.  Any side up to 64, in either puzzle form.
 *
 *   solver                 answer request lines from stdin until end of input
 *   solver --once [FILE]   answer the one request in FILE (or stdin), then exit
 *   solver --version       print the version
 *   --fault KIND           misbehave on puzzles whose text starts with --on PREFIX
 *                          (default: every puzzle): wrong (a cell of the solution
 *                          changed), hang (fork a child, both sleep, SIGTERM
 *                          ignored), crash (a message on stderr, then abort),
 *                          garbage (a line that is no answer), exit3 (exit status 3),
 *                          hog (allocate and touch memory until that fails)
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAXN 64
#define MAXCELLS (MAXN * MAXN)
static const char SYMBOLS[] = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

static int n, box_rows, box_cols, ncells, numbers;
static int cells[MAXCELLS];
static uint64_t rows_used[MAXN], cols_used[MAXN], boxes_used[MAXN];
static long long nodes, guesses, budget, limit, found;
static double deadline;
static int stopped; /* 0, or 'B' (budget), 'T' (time) */
static int *solutions; /* found solutions, up to limit */
static long long capacity; /* ints */

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int box_of(int cell) {
    int r = cell / n, c = cell % n;
    return (r / box_rows) * box_rows + c / box_cols;
}

static int popcount(uint64_t x) { return __builtin_popcountll(x); }

static void place(int cell, int digit, int on) {
    uint64_t bit = 1ULL << (digit - 1);
    int r = cell / n, c = cell % n, b = box_of(cell);
    if (on) {
        rows_used[r] |= bit; cols_used[c] |= bit; boxes_used[b] |= bit;
        cells[cell] = digit;
    } else {
        rows_used[r] &= ~bit; cols_used[c] &= ~bit; boxes_used[b] &= ~bit;
        cells[cell] = 0;
    }
}

static uint64_t candidates(int cell) {
    uint64_t all = n == 64 ? ~0ULL : (1ULL << n) - 1;
    return all & ~(rows_used[cell / n] | cols_used[cell % n] | boxes_used[box_of(cell)]);
}

static void record(void) {
    if ((found + 1) * ncells > capacity) {
        capacity = 2 * (found + 1) * ncells;
        solutions = realloc(solutions, sizeof(int) * capacity);
        if (!solutions) { fprintf(stderr, "solver: out of memory\n"); exit(2); }
    }
    memcpy(solutions + found * ncells, cells, sizeof(int) * ncells);
    found++;
}

/* Returns 1 to stop (limit reached, or a budget or time limit fired). */
static int search(void) {
    nodes++;
    if (nodes > budget) { stopped = 'B'; return 1; }
    if ((nodes & 1023) == 0 && deadline > 0 && now() >= deadline) { stopped = 'T'; return 1; }
    int best = -1, best_count = MAXN + 1;
    uint64_t best_mask = 0;
    for (int cell = 0; cell < ncells; cell++) {
        if (cells[cell]) continue;
        uint64_t mask = candidates(cell);
        int count = popcount(mask);
        if (count < best_count) { best = cell; best_count = count; best_mask = mask; }
        if (count == 0) return 0;
    }
    if (best < 0) { record(); return found >= limit; }
    if (best_count > 1) guesses++;
    while (best_mask) {
        int digit = __builtin_ctzll(best_mask) + 1;
        best_mask &= best_mask - 1;
        place(best, digit, 1);
        int stop = search();
        place(best, digit, 0);
        if (stop) return 1;
    }
    return 0;
}

static void print_grid(const int *grid) {
    for (int i = 0; i < ncells; i++) {
        if (numbers) printf(i ? " %d" : "%d", grid[i]);
        else putchar(grid[i] ? SYMBOLS[grid[i] - 1] : '.');
    }
}

/* Reads one request line; returns 0 when it cannot. */
static int read_request(char *line) {
    int count = 0, values[MAXCELLS];
    char *token, *text = NULL, *save;
    limit = 1; budget = -1; deadline = 0; box_rows = box_cols = 0; numbers = 0;
    for (token = strtok_r(line, " \t\r\n", &save); token; token = strtok_r(NULL, " \t\r\n", &save)) {
        if (!strncmp(token, "limit=", 6)) limit = atoll(token + 6);
        else if (!strncmp(token, "budget=", 7)) budget = atoll(token + 7);
        else if (!strncmp(token, "time=", 5)) deadline = now() + atof(token + 5);
        else if (!strncmp(token, "box=", 4)) sscanf(token + 4, "%dx%d", &box_rows, &box_cols);
        else if (strchr(token, '=')) continue; /* a field this program does not use */
        else if (count == 0 && strlen(token) > 3) text = token;
        else { if (count >= MAXCELLS) return 0; values[count++] = atoi(token); }
    }
    if (text) {
        ncells = (int)strlen(text);
        for (n = 1; n * n < ncells; n++) {}
        if (n * n != ncells || n > MAXN) return 0;
        for (int i = 0; i < ncells; i++) {
            const char *at = strchr(SYMBOLS, text[i]);
            cells[i] = (text[i] == '.' || text[i] == '0' || !at) ? 0 : (int)(at - SYMBOLS) + 1;
            if (cells[i] > n) return 0;
        }
    } else {
        numbers = 1; ncells = count;
        for (n = 1; n * n < ncells; n++) {}
        if (n * n != ncells || n > MAXN) return 0;
        for (int i = 0; i < ncells; i++) cells[i] = values[i];
    }
    if (!box_rows) {
        for (box_rows = 1; (box_rows + 1) * (box_rows + 1) <= n; box_rows++) {}
        while (n % box_rows) box_rows--;
        box_cols = n / box_rows;
    }
    if (budget < 0) budget = INT64_MAX;
    return 1;
}

static int matches(const char *line, const char *prefix) {
    return !prefix || !strncmp(line, prefix, strlen(prefix));
}

static void misbehave(const char *fault) {
    if (!strcmp(fault, "hang")) {
        signal(SIGTERM, SIG_IGN);
        if (fork() == 0) for (;;) pause();
        for (;;) pause();
    }
    if (!strcmp(fault, "crash")) {
        fprintf(stderr, "solver: crashing on purpose\n");
        abort();
    }
    if (!strcmp(fault, "exit3")) {
        fprintf(stderr, "solver: giving up with status 3\n");
        exit(3);
    }
    if (!strcmp(fault, "hog")) {
        for (;;) { /* no check: a NULL from malloc crashes, as it does in real programs */
            static char *volatile kept;
            char *block = malloc(1 << 24);
            memset(block, 1, 1 << 24);
            kept = block;
            (void)kept;
        }
    }
    if (!strcmp(fault, "garbage")) {
        printf("the answer is 42\n");
        fflush(stdout);
    }
}

static void answer(char *line, const char *fault, const char *on) {
    int faulty = fault && matches(line, on);
    if (faulty && strcmp(fault, "wrong")) {
        misbehave(fault);
        return;
    }
    if (!read_request(line)) { printf("ERROR cannot read the request\n"); fflush(stdout); return; }
    for (int i = 0; i < n; i++) rows_used[i] = cols_used[i] = boxes_used[i] = 0;
    for (int i = 0; i < ncells; i++) {
        int digit = cells[i];
        if (!digit) continue;
        if (candidates(i) & (1ULL << (digit - 1))) place(i, digit, 1);
        else { printf("INVALID\n"); fflush(stdout); return; }
    }
    nodes = guesses = found = 0; stopped = 0;
    double start = now();
    search();
    double micros = (now() - start) * 1e6;
    if (faulty && found) { /* wrong: the first cell takes its neighbour's digit */
        solutions[0] = solutions[1];
    }
    if (found == 0) {
        printf("%s", stopped == 'B' ? "BUDGET" : stopped == 'T' ? "TIMEOUT" : "UNSOLVABLE");
    } else {
        printf(found == 1 ? "SOLVED " : "MULTIPLE ");
        for (long long k = 0; k < found; k++) {
            if (k) putchar(' ');
            print_grid(solutions + k * ncells);
        }
        if (!stopped && found < limit) printf(" exhausted");
        if (stopped) printf(" stopped=%s", stopped == 'B' ? "BUDGET" : "TIMEOUT");
    }
    printf(" time_us=%.1f nodes=%lld guesses=%lld\n", micros, nodes, guesses);
    fflush(stdout);
}

int main(int argc, char **argv) {
    const char *fault = NULL, *on = NULL, *file = NULL;
    int once = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--version")) { printf("test-solver 1.0\n"); return 0; }
        else if (!strcmp(argv[i], "--once")) once = 1;
        else if (!strcmp(argv[i], "--fault") && i + 1 < argc) fault = argv[++i];
        else if (!strcmp(argv[i], "--on") && i + 1 < argc) on = argv[++i];
        else if (argv[i][0] != '-') file = argv[i];
        else { fprintf(stderr, "solver: unknown option %s\n", argv[i]); return 2; }
    }
    FILE *in = stdin;
    if (file && !(in = fopen(file, "r"))) { perror(file); return 2; }
    char *line = NULL;
    size_t size = 0;
    while (getline(&line, &size, in) > 0) {
        answer(line, fault, on);
        if (once) break;
    }
    free(line);
    return 0;
}
