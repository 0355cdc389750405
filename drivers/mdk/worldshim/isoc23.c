/* One symbol for MDK 0.7.0 (mdk-python 0.7.0) on hosts with glibc < 2.38.
 *
 * Its native library calls `__isoc23_strtol`, the name glibc 2.38 gives strtol when a program is
 * compiled as C23 (the C23 function also accepts a "0b" binary prefix). glibc 2.36 has no such
 * symbol, so ci/patch-glibc-weak.py marks the library's GLIBC_2.38 requirement weak and this
 * object, preloaded into the driver of the mdk-0.7 engine, supplies the name. It forwards to the
 * host's strtol: Rust's std and the crates in that library parse decimal numbers with it (no "0b"
 * input reaches it), where both functions agree. Built by ci/setup into .venv-mdk07/lib.
 */
#include <stdlib.h>

long __isoc23_strtol(const char *text, char **end, int base) {
    return strtol(text, end, base);
}
