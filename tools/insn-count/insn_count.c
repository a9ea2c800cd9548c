// A QEMU TCG plugin that counts the guest instructions a program executes
// and prints the total at exit ("insn-count: N"). Each translation block
// adds its instruction count to one counter inline each time it runs, so
// the count is exact for a single-threaded guest (the benchmarks it serves
// run one thread). Built against the qemu-plugin.h of the QEMU the count
// runs under (count.sh fetches it from Debian's qemu source package).
//
// With the argument symbols=on, each block's count also goes to the symbol
// of its first instruction (those of the program's own symbol table; code
// elsewhere, libc's, counts as "?"), printed at exit one line each
// ("insn-count-symbol: N NAME").
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

static uint64_t executed;

enum { kMaxSymbols = 16384 };
static int by_symbol;
static struct {
  const char *name;
  uint64_t executed;
} symbols[kMaxSymbols];
static int symbol_count;

// The counter of symbol `name`; once the table is full, that of its last
// entry, "(more symbols)".
static uint64_t *symbol_counter(const char *name) {
  if (!name) name = "?";
  for (int i = 0; i < symbol_count; i++)
    if (strcmp(symbols[i].name, name) == 0) return &symbols[i].executed;
  if (symbol_count == kMaxSymbols) return &symbols[kMaxSymbols - 1].executed;
  symbols[symbol_count].name =
      symbol_count == kMaxSymbols - 1 ? "(more symbols)" : strdup(name);
  return &symbols[symbol_count++].executed;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  (void)id;
  const size_t n = qemu_plugin_tb_n_insns(tb);
  qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
                                           &executed, n);
  if (by_symbol && n > 0) {
    const char *name = qemu_plugin_insn_symbol(qemu_plugin_tb_get_insn(tb, 0));
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
                                             symbol_counter(name), n);
  }
}

static void on_exit(qemu_plugin_id_t id, void *data) {
  (void)id;
  (void)data;
  char line[512];
  snprintf(line, sizeof line, "insn-count: %" PRIu64 "\n", executed);
  qemu_plugin_outs(line);
  for (int i = 0; i < symbol_count; i++) {
    snprintf(line, sizeof line, "insn-count-symbol: %" PRIu64 " %s\n",
             symbols[i].executed, symbols[i].name);
    qemu_plugin_outs(line);
  }
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t *info, int argc,
                                           char **argv) {
  (void)info;
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "symbols=on") == 0) {
      by_symbol = 1;
    } else {
      fprintf(stderr, "insn_count: unknown argument %s\n", argv[i]);
      return -1;
    }
  }
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
  qemu_plugin_register_atexit_cb(id, on_exit, NULL);
  return 0;
}
