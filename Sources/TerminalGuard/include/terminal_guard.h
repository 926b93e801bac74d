#ifndef OPSCOPE_TERMINAL_GUARD_H
#define OPSCOPE_TERMINAL_GUARD_H

/// Saves the shell's terminal modes (call before ncurses changes them) and installs handlers for
/// fatal signals (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP) that give the terminal back
/// before the signal's usual handling (Swift's backtrace printer, or the default) runs.
void opscope_install_crash_guard(void);

/// Puts the previous handlers back (the dashboard has given the terminal back itself).
void opscope_remove_crash_guard(void);

#endif
