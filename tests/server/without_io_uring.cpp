// SPDX-License-Identifier: AGPL-3.0-or-later
// casa-without-io-uring COMMAND [ARG]...: runs COMMAND where io_uring_setup
// fails with EPERM, as under Docker's and podman's default seccomp profiles
// (or with the sysctl kernel.io_uring_disabled=2), to test what a server
// built with CASA_IO_URING does there. A seccomp filter of its own: needs no
// privilege (only no_new_privs) and no library.
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>

// The architecture whose system call numbers the filter speaks of: this
// program's own (the one it passes to exec).
#if defined(__x86_64__)
constexpr unsigned kArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr unsigned kArch = AUDIT_ARCH_AARCH64;
#else
#error "casa-without-io-uring: add this architecture's AUDIT_ARCH_ value"
#endif

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: casa-without-io-uring COMMAND [ARG]...\n");
    return 2;
  }
  sock_filter filter[] = {
      // Another architecture's system call numbers mean other calls: let them be.
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kArch, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  sock_fprog program{static_cast<unsigned short>(sizeof filter / sizeof filter[0]), filter};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0) {
    std::fprintf(stderr, "casa-without-io-uring: seccomp: %s\n", std::strerror(errno));
    return 2;
  }
  execvp(argv[1], argv + 1);
  std::fprintf(stderr, "casa-without-io-uring: %s: %s\n", argv[1], std::strerror(errno));
  return 127;
}
