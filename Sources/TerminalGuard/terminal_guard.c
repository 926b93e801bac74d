// A trap in Swift code, or a bad access, while the dashboard owns the terminal must not leave
// the person's terminal raw, without a cursor, on the alternate screen. Only async-signal-safe
// calls in the handler: tcsetattr, write, sigaction, raise.
#include "terminal_guard.h"

#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static struct termios shell_modes;
static volatile sig_atomic_t shell_modes_saved = 0;
static struct sigaction previous_actions[65];
static const int fatal_signals[6] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP };

static void crash_handler(int number) {
    // Attributes off, mouse reports off, cursor on, leave the alternate screen.
    static const char reset[] = "\033[0m\033[?1000l\033[?1002l\033[?1006l\033[?25h\033[?1049l\r\n";
    if (shell_modes_saved) tcsetattr(STDIN_FILENO, TCSANOW, &shell_modes);
    ssize_t ignored = write(STDOUT_FILENO, reset, sizeof reset - 1);
    (void)ignored;
    sigaction(number, &previous_actions[number], NULL);
    raise(number);
}

void opscope_install_crash_guard(void) {
    shell_modes_saved = tcgetattr(STDIN_FILENO, &shell_modes) == 0;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = crash_handler;
    sigemptyset(&action.sa_mask);
    for (int i = 0; i < 6; i++) sigaction(fatal_signals[i], &action, &previous_actions[fatal_signals[i]]);
}

void opscope_remove_crash_guard(void) {
    for (int i = 0; i < 6; i++) sigaction(fatal_signals[i], &previous_actions[fatal_signals[i]], NULL);
    shell_modes_saved = 0;
}
