#ifndef OPSCOPE_CNCURSES_SHIM_H
#define OPSCOPE_CNCURSES_SHIM_H

// Wide-character ncurses. Function-like macros and global variables do not reach Swift (or are
// not concurrency-safe there), so the few the backend needs are wrapped in inline functions.
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>
#include <ncursesw/curses.h>

static inline WINDOW *opscope_stdscr(void) { return stdscr; }
/// The process's terminal as ncurses' screen (NULL when TERM is unusable: newterm, unlike
/// initscr, does not exit the program).
static inline SCREEN *opscope_newterm(void) { return newterm(NULL, stdout, stdin); }
static inline void opscope_flush_stdout(void) { fflush(stdout); }
/// A screen on other file descriptors (benchmarks count the bytes a frame costs).
static inline SCREEN *opscope_newterm_on(const char *type, int output, int input) {
    FILE *out = fdopen(output, "w");
    FILE *in = fdopen(input, "r");
    if (out == NULL || in == NULL) return NULL;
    return newterm(type, out, in);
}
static inline int opscope_colors(void) { return COLORS; }
static inline int opscope_color_pairs(void) { return COLOR_PAIRS; }
static inline int opscope_width(void) { return getmaxx(stdscr); }
static inline int opscope_height(void) { return getmaxy(stdscr); }
static inline int opscope_key_f(int n) { return KEY_F(n); }

static inline attr_t opscope_attributes(int bold, int dim, int underline, int reverse) {
    attr_t value = A_NORMAL;
    if (bold) value |= A_BOLD;
    if (dim) value |= A_DIM;
    if (underline) value |= A_UNDERLINE;
    if (reverse) value |= A_REVERSE;
    return value;
}

static inline void opscope_set_style(attr_t attributes, short pair) { attr_set(attributes, pair, NULL); }
static inline int opscope_put(int y, int x, const wchar_t *text, int count) { return mvaddnwstr(y, x, text, count); }
/// One byte of input, or a KEY_ code (keypad on), or ERR: multibyte characters are assembled by
/// the caller, so that an invalid sequence costs only its own bytes (get_wch takes the bytes
/// after a lone lead byte, an Escape or a q among them, as the rest of the character).
static inline int opscope_get_byte(void) { return getch(); }
static inline void opscope_keypad(int on) { keypad(stdscr, on ? TRUE : FALSE); }
static inline void opscope_clear_all(void) { clearok(curscr, TRUE); }

static inline mmask_t opscope_mouse_mask(void) {
    return BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED;
}
/// Makes ncurses return the start of an SGR (1006) mouse report, `ESC [ <`, as a key code of its
/// own when the terminal's description does not make it KEY_MOUSE (tmux-256color, screen: their
/// `kmous` is the X10 `ESC [ M`): the caller reads the rest of the report. Returns that code, 0
/// when ncurses decodes SGR reports itself (xterm's `kmous` is `ESC [ <`), -1 when no code is free.
static inline int opscope_define_sgr_mouse_key(void) {
    static const char sgr[] = "\033[<";
    if (key_defined(sgr) == KEY_MOUSE) return 0;
    for (int code = 0x3000; code < 0x3100; code++) {
        char *bound = keybound(code, 0);
        if (bound != NULL) { free(bound); continue; }
        return define_key(sgr, code) == OK ? code : -1;
    }
    return -1;
}

static inline int opscope_mouse_is_click(mmask_t state) { return (state & (BUTTON1_PRESSED | BUTTON1_CLICKED)) != 0; }
static inline int opscope_mouse_is_wheel_up(mmask_t state) { return (state & BUTTON4_PRESSED) != 0; }
static inline int opscope_mouse_is_wheel_down(mmask_t state) { return (state & BUTTON5_PRESSED) != 0; }

#endif
