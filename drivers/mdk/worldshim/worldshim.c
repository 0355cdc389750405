// worldshim: puts an engine process on the marmot-conform world's clock and seeded randomness.
//
// Loaded with LD_PRELOAD into the MDK driver process, it interposes the glibc entry points through
// which MDK's native library (and OpenSSL, SQLCipher, the Rust standard library) read wall-clock
// time and OS randomness:
//   - clock_gettime (CLOCK_REALTIME and its coarse / TAI variants), gettimeofday, time,
//     timespec_get: answered from the world instant the driver set for the current request;
//   - getrandom() and syscall(SYS_getrandom, ...): answered from a ChaCha20 stream keyed by the
//     per-request seed. Every other syscall number is forwarded to the real syscall().
//   - fsync and fdatasync: answered with success without flushing (see "Durability" below).
// Monotonic and CPU-time clocks are NOT virtualized: they carry no absolute meaning, never reach an
// event or an MLS message, and freezing them would hang any timeout or back-off loop that waits for
// them to advance.
//
// Until the driver arms the shim (worldshim_set), every call passes through to glibc, so the Python
// interpreter starts normally. Once armed it never goes back to the wall clock or the OS stream.
// The driver finds the control functions below with ctypes (they are global symbols of a preloaded
// object); their presence is how it knows the shim is active. See docs/driver-protocol.md.
//
// Randomness is one stream per request, so its bytes are only reproducible when the draws come in a
// fixed order: from the request's thread, or from threads it waits for one at a time. With
// WORLDSHIM_TRACE set, every draw is logged with its thread id, to find draws from elsewhere.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define WORLDSHIM_VERSION 1

// glibc marks the out-parameters nonnull, but callers do pass NULL to gettimeofday in practice.
#pragma GCC diagnostic ignored "-Wnonnull-compare"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int armed = 0;
static int64_t world_seconds = 0;
static uint32_t key[8];
static uint32_t counter = 0;      // ChaCha20 block counter within the current seed
static uint8_t block[64];
static size_t block_used = 64;    // bytes of `block` already handed out
static uint64_t served = 0;       // random bytes served since load (for tests and diagnostics)
static uint64_t clock_reads = 0;  // virtual clock reads since load
static int tracing = 0;           // WORLDSHIM_TRACE set: log every draw with its thread to stderr
static uint64_t flushes_skipped = 0;  // fsync/fdatasync calls answered without flushing

// --- ChaCha20 block function (RFC 8439 §2.3), nonce fixed at zero ---------------------------------

static inline uint32_t rotl(uint32_t v, int c) { return (v << c) | (v >> (32 - c)); }
#define QR(a, b, c, d) \
    a += b; d ^= a; d = rotl(d, 16); c += d; b ^= c; b = rotl(b, 12); \
    a += b; d ^= a; d = rotl(d, 8);  c += d; b ^= c; b = rotl(b, 7);

static void next_block(void) {
    uint32_t in[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
                       key[0], key[1], key[2], key[3], key[4], key[5], key[6], key[7],
                       counter++, 0, 0, 0};
    uint32_t x[16];
    memcpy(x, in, sizeof x);
    for (int i = 0; i < 10; i++) {
        QR(x[0], x[4], x[8], x[12]) QR(x[1], x[5], x[9], x[13]) QR(x[2], x[6], x[10], x[14]) QR(x[3], x[7], x[11], x[15])
        QR(x[0], x[5], x[10], x[15]) QR(x[1], x[6], x[11], x[12]) QR(x[2], x[7], x[8], x[13]) QR(x[3], x[4], x[9], x[14])
    }
    for (int i = 0; i < 16; i++) {
        uint32_t v = x[i] + in[i];
        block[4 * i] = (uint8_t)v; block[4 * i + 1] = (uint8_t)(v >> 8);
        block[4 * i + 2] = (uint8_t)(v >> 16); block[4 * i + 3] = (uint8_t)(v >> 24);
    }
    block_used = 0;
}

static void fill(uint8_t *out, size_t length) {
    while (length > 0) {
        if (block_used == 64) next_block();
        size_t take = 64 - block_used < length ? 64 - block_used : length;
        memcpy(out, block + block_used, take);
        block_used += take; out += take; length -= take; served += take;
    }
}

// --- Control API (called by the driver through ctypes) ---------------------------------------------

int worldshim_version(void) { return WORLDSHIM_VERSION; }

/// Sets the world instant (Unix seconds) and restarts the random stream from a 32-byte seed.
void worldshim_set(int64_t unix_seconds, const uint8_t seed[32]) {
    pthread_mutex_lock(&lock);
    world_seconds = unix_seconds;
    for (int i = 0; i < 8; i++)
        key[i] = (uint32_t)seed[4 * i] | (uint32_t)seed[4 * i + 1] << 8 | (uint32_t)seed[4 * i + 2] << 16 | (uint32_t)seed[4 * i + 3] << 24;
    counter = 0;
    block_used = 64;
    if (!armed) tracing = getenv("WORLDSHIM_TRACE") != NULL;
    armed = 1;
    pthread_mutex_unlock(&lock);
}

uint64_t worldshim_random_bytes_served(void) { return __atomic_load_n(&served, __ATOMIC_RELAXED); }
uint64_t worldshim_clock_reads(void) { return __atomic_load_n(&clock_reads, __ATOMIC_RELAXED); }
uint64_t worldshim_flushes_skipped(void) { return __atomic_load_n(&flushes_skipped, __ATOMIC_RELAXED); }

// --- Randomness ------------------------------------------------------------------------------------

static ssize_t (*real_getrandom)(void *, size_t, unsigned int);
static long (*real_syscall)(long, ...);

static void *next_symbol(const char *name) { return dlsym(RTLD_NEXT, name); }

static ssize_t world_random(void *buffer, size_t length) {
    pthread_mutex_lock(&lock);
    fill(buffer, length);
    pthread_mutex_unlock(&lock);
    if (tracing) {
        char line[96];
        int n = snprintf(line, sizeof line, "worldshim: tid %ld draws %zu\n", (long)gettid(), length);
        if (n > 0) write(2, line, (size_t)n);
    }
    return (ssize_t)length;
}

ssize_t getrandom(void *buffer, size_t length, unsigned int flags) {
    if (__atomic_load_n(&armed, __ATOMIC_ACQUIRE)) return world_random(buffer, length);
    if (!real_getrandom) real_getrandom = next_symbol("getrandom");
    return real_getrandom(buffer, length, flags);
}

long syscall(long number, ...) {
    va_list args;
    va_start(args, number);
    long a[6];
    for (int i = 0; i < 6; i++) a[i] = va_arg(args, long);
    va_end(args);
    if (number == SYS_getrandom && __atomic_load_n(&armed, __ATOMIC_ACQUIRE))
        return world_random((void *)a[0], (size_t)a[1]);
    if (!real_syscall) real_syscall = (long (*)(long, ...))next_symbol("syscall");
    return real_syscall(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

// --- Wall-clock time -------------------------------------------------------------------------------

static int (*real_clock_gettime)(clockid_t, struct timespec *);
static int (*real_gettimeofday)(struct timeval *, void *);
static time_t (*real_time)(time_t *);
static int (*real_timespec_get)(struct timespec *, int);

static int is_wall_clock(clockid_t id) {
    return id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE || id == CLOCK_TAI;
}

static int64_t world_now(void) {
    __atomic_add_fetch(&clock_reads, 1, __ATOMIC_RELAXED);
    pthread_mutex_lock(&lock);
    int64_t now = world_seconds;
    pthread_mutex_unlock(&lock);
    return now;
}

int clock_gettime(clockid_t id, struct timespec *out) {
    if (is_wall_clock(id) && __atomic_load_n(&armed, __ATOMIC_ACQUIRE)) {
        out->tv_sec = (time_t)world_now();
        out->tv_nsec = 0;
        return 0;
    }
    if (!real_clock_gettime) real_clock_gettime = next_symbol("clock_gettime");
    return real_clock_gettime(id, out);
}

int gettimeofday(struct timeval *restrict out, void *restrict zone) {
    if (__atomic_load_n(&armed, __ATOMIC_ACQUIRE)) {
        if (out) { out->tv_sec = (time_t)world_now(); out->tv_usec = 0; }
        return 0;
    }
    if (!real_gettimeofday) real_gettimeofday = next_symbol("gettimeofday");
    return real_gettimeofday(out, zone);
}

time_t time(time_t *out) {
    if (__atomic_load_n(&armed, __ATOMIC_ACQUIRE)) {
        time_t now = (time_t)world_now();
        if (out) *out = now;
        return now;
    }
    if (!real_time) real_time = next_symbol("time");
    return real_time(out);
}

int timespec_get(struct timespec *out, int base) {
    if (base == TIME_UTC && __atomic_load_n(&armed, __ATOMIC_ACQUIRE)) {
        out->tv_sec = (time_t)world_now();
        out->tv_nsec = 0;
        return base;
    }
    if (!real_timespec_get) real_timespec_get = next_symbol("timespec_get");
    return real_timespec_get(out, base);
}

// --- Durability ------------------------------------------------------------------------------------
// MDK keeps each member in an encrypted SQLite database and commits every change with fsync (measured:
// 3,428 of them in one four-member scenario, about 90% of its wall time on this machine's disk). Only a
// power loss or a kernel crash can tell a skipped flush: the data is written all the same, into the
// page cache, and every reader of the world, a member restarted by closing and reopening its store
// included, reads it back from there. The world has no power loss, so once armed the shim answers
// success without flushing. The bytes of every message are unchanged (a flush returns no data), and
// write itself still fails as it would. What is given up is hearing of a write-back error at the
// flush (ext4 may report a full disk only then); a descriptor that is not open is still EBADF.

static int skipped_flush(int fd) {
    if (fcntl(fd, F_GETFD) == -1) return -1;  // errno is EBADF, as the real call would set it
    __atomic_add_fetch(&flushes_skipped, 1, __ATOMIC_RELAXED);
    return 0;
}

static int (*real_fsync)(int);
static int (*real_fdatasync)(int);

int fsync(int fd) {
    if (__atomic_load_n(&armed, __ATOMIC_ACQUIRE)) return skipped_flush(fd);
    if (!real_fsync) real_fsync = next_symbol("fsync");
    return real_fsync(fd);
}

int fdatasync(int fd) {
    if (__atomic_load_n(&armed, __ATOMIC_ACQUIRE)) return skipped_flush(fd);
    if (!real_fdatasync) real_fdatasync = next_symbol("fdatasync");
    return real_fdatasync(fd);
}
