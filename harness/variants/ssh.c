/* boot: ssh — the variant's loads run on another machine reached with the
 * OpenSSH client; schedrig-agent runs the plan there and streams agent
 * protocol lines (agent_proto.h) back on ssh's stdout; this side decodes
 * them (agent_host.h) and hands every iteration to the caller, which parses
 * and stores it here.
 *
 * Every ssh is an argv (sshargv.h): BatchMode=yes, one shared connection
 * (ControlMaster=auto, ControlPath=RUN_DIR/ssh-%C, ControlPersist=60; a
 * short directory under /tmp when the run directory is too long for a
 * socket path; not for the tries after kexec, below), closed with
 * `ssh -O exit` at the end. Host keys:
 * strict_host_key: true (the default) is StrictHostKeyChecking=yes against
 * the user's known_hosts; false is StrictHostKeyChecking=accept-new into
 * RUN_DIR/VARIANT-known_hosts, a file of this run only (the first
 * connection's key is trusted, a different one later, e.g. after kexec, is
 * refused; the user's known_hosts is neither trusted nor written). The
 * environment variable SCHEDRIG_SSH_CONFIG names an ssh_config file passed
 * as `ssh -F` (e.g. for UserKnownHostsFile or ProxyJump); command-line
 * options above take precedence over it. Remote commands are fixed scripts
 * run as `sh -c SCRIPT sh ARGS...` with every word single-quoted, so config
 * values reach the remote shell as data only; /usr/local/sbin:/usr/sbin:/sbin
 * are added to the remote PATH (ssh_remote.h runs them).
 *
 * What goes to the machine: only the agent, the static schedrig-agent
 * beside this schedrig (agent_binary.h; WORKDIR/bin/schedrig-agent)
 * and the plan file (WORKDIR/plan-VARIANT.json), each sent as ssh's stdin to
 * `cat` (no sftp server needed). WORKDIR (workdir:, default
 * ~/.cache/schedrig of the login user there) is private: created with umask
 * 077, it must be a directory owned by the login user and writable by
 * nobody else, with every directory above it owned by root or that user and
 * writable by others only when sticky (/tmp); no component may be a
 * symbolic link, and each copy checks again and writes a new file (never
 * through a link) that is renamed into place. Else the variant fails
 * before anything is copied: as root, a directory another user could
 * reach would let them have root run their program. The load tools
 * of the plan must be installed there (checked with `command -v` before
 * anything runs); the agent, static, needs no library there (it is run
 * once, `schedrig-agent version`, to see that it can). Copying tools and
 * libraries as the qemu initramfs does would put this machine's libc under
 * the remote tools (LD_LIBRARY_PATH is inherited by every load), so it is
 * not done.
 *
 * kexec: {kernel, initrd, append}: before the plan, kernel (a bzImage file
 * here) and initrd are copied to WORKDIR, loaded with `kexec -l KERNEL
 * [--initrd=INITRD] --reuse-cmdline [--append=APPEND]` and started with
 * `systemctl kexec` (when systemd runs there) or `kexec -e`, detached; then
 * ssh is retried, each try a connection of its own (not shared), until the
 * machine answers with a new boot_id (/proc/sys/kernel/random/boot_id), at
 * most timeout_s (default 600 s). Its `uname -r` must equal the kernel's
 * release (the version string of the bzImage header,
 * Documentation/arch/x86/boot.rst: kernel_version at 0x20e) and its
 * /proc/cmdline must contain append, or the variant fails. The
 * machine is not booted back: the next variants find it on that kernel.
 *
 * The agent runs with --watch-stdin: its stdin is a pipe held by this
 * process for the session's life, so when the session goes away (Ctrl-C,
 * this process killed, the connection lost) the agent stops its loads and
 * restores its knobs. On Ctrl-C the pipe is closed first and the agent
 * given the runner's grace period to finish, then ssh is killed.
 *
 * Failures of the variant (return -1): a bad host or user, the host
 * unreachable, host key or authentication refused, a tool missing there,
 * schedrig not running there, kexec failing or the kernel not coming up in
 * time, the agent failing or its session ending early. Every ssh's stderr
 * is kept in RUN_DIR/VARIANT-ssh.log and the agent's lines in
 * RUN_DIR/VARIANT-agent.jsonl. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent_binary.h"
#include "agent_host.h"
#include "knobs.h"
#include "preflight.h"
#include "ssh_remote.h"

#define SSH_RETRY_EVERY_S 2.0      /* after kexec */
/* sun_path is 108 bytes with its NUL; ssh binds the master's socket as
 * PATH.XXXXXXXXXXXXXXXX first (17 more) and %C is 40. */
#define SSH_CTL_PATH_MAX (108 - 1 - 17)

/* The checks of a private workdir (sourced by probe_script and
 * copy_script): own DIR refuses DIR unless it is a directory, not a
 * symbolic link, owned by the login user and not writable by group or
 * others; safe DIR refuses a symbolic link, or a directory owned by
 * neither root nor the login user, or writable by others without the
 * sticky bit (another user could swap what is below it). Exit status 4
 * with "schedrig-workdir: why" on stderr. */
#define WORKDIR_CHECKS \
	"me=$(id -u); " \
	"bad() { echo \"schedrig-workdir: $*\" >&2; exit 4; }; " \
	"own() { [ -L \"$1\" ] && bad \"$1 is a symbolic link\"; [ -d \"$1\" ] || bad \"$1 is not a" \
	" directory\"; set -- \"$1\" $(ls -dn -- \"$1\"); [ \"$4\" = \"$me\" ] || bad \"$1 is owned by" \
	" uid $4, not by the login user (uid $me)\"; case $2 in ?????w*|????????w*) bad \"$1 is" \
	" writable by other users (mode $2)\";; esac; }; " \
	"safe() { [ -L \"$1\" ] && bad \"$1 is a symbolic link\"; set -- \"$1\" $(ls -dn -- \"$1\"); " \
	"[ \"$4\" = 0 ] || [ \"$4\" = \"$me\" ] || bad \"$1 is owned by uid $4, neither root nor the" \
	" login user\"; case $2 in ?????????[tT]*) ;; ?????w*|????????w*) bad \"$1 is writable by" \
	" other users (mode $2)\";; esac; }; "

/* $1 WORKDIR ("": ~/.cache/schedrig of the login user), then the tools.
 * Checks every directory above WORKDIR that exists and that neither
 * WORKDIR nor WORKDIR/bin is a symbolic link (WORKDIR_CHECKS) before it
 * creates them private (umask 077), checks them all again, then prints
 * the workdir's real path, boot_id, release and one "missing TOOL" line
 * each. */
static const char probe_script[] =
	WORKDIR_CHECKS
	"umask 077; d=${1:-$HOME/.cache/schedrig}; shift; "
	"case $d in /*) ;; *) bad \"$d is not an absolute path\";; esac; "
	"above() { p=$d; while p=$(dirname -- \"$p\"); [ \"$p\" != / ]; do "
	"if [ -e \"$p\" ] || [ -L \"$p\" ]; then safe \"$p\"; fi; done; }; above; "
	"for x in \"$d\" \"$d/bin\"; do [ -L \"$x\" ] && bad \"$x is a symbolic link\"; done; "
	"mkdir -p -- \"$d/bin\" || exit 3; own \"$d\"; own \"$d/bin\"; above; "
	"cd -P -- \"$d\" && pwd; cat /proc/sys/kernel/random/boot_id; uname -r; "
	"for t in \"$@\"; do case \"$t\" in */*) test -x \"$t\" || echo \"missing $t\";; "
	"*) command -v \"$t\" >/dev/null 2>&1 || echo \"missing $t\";; esac; done";
/* $1 destination in the workdir (or its bin/), $2 mode; the file on stdin.
 * The directory is checked again (WORKDIR_CHECKS own), the temporary file
 * made anew (noclobber: never through a link) and renamed over $1. */
static const char copy_script[] =
	WORKDIR_CHECKS
	"umask 077; own \"$(dirname -- \"$1\")\"; rm -f -- \"$1.tmp\" && (set -C; cat >\"$1.tmp\") &&"
	" chmod \"$2\" \"$1.tmp\" && mv -f -- \"$1.tmp\" \"$1\"";
/* boot_id, release, cmdline. */
static const char facts_script[] =
	"cat /proc/sys/kernel/random/boot_id; uname -r; cat /proc/cmdline";
static const char kexec_exec_script[] =
	"(sleep 1; if test -d /run/systemd/system; then systemctl kexec; else kexec -e; fi)"
	" </dev/null >/dev/null 2>&1 &";

/* Line i (0-based) of text into dst. */
static void nth_line(const char *text, int i, char *dst, size_t size)
{
	for (; i > 0 && text; i--)
		if ((text = strchr(text, '\n')))
			text++;
	dst[0] = '\0';
	if (text)
		snprintf(dst, size, "%.*s", (int)strcspn(text, "\n"), text);
}

/* The release a bzImage carries: the first word of its version string
 * (Documentation/arch/x86/boot.rst: "HdrS" at 0x202, kernel_version at
 * 0x20e, an offset from 0x200). Returns 0 or -1 (not a bzImage). */
static int bzimage_release(const char *path, char *out, size_t size)
{
	unsigned char hdr[0x210];
	char ver[256];
	FILE *f = fopen(path, "rb");
	int rc = -1;

	if (!f)
		return -1;
	if (fread(hdr, 1, sizeof(hdr), f) == sizeof(hdr) && !memcmp(hdr + 0x202, "HdrS", 4)) {
		long off = 0x200 + (long)(hdr[0x20e] | hdr[0x20f] << 8);
		size_t n;
		if (hdr[0x20e] | hdr[0x20f]) {
			if (fseek(f, off, SEEK_SET) == 0 &&
			    (n = fread(ver, 1, sizeof(ver) - 1, f)) > 0) {
				ver[n] = '\0';
				ver[strcspn(ver, " ")] = '\0';
				if (ver[0]) {
					snprintf(out, size, "%s", ver);
					rc = 0;
				}
			}
		}
	}
	fclose(f);
	return rc;
}

/* Connect, create the private WORKDIR/bin (sv->workdir becomes its real
 * path there), check the tools; boot_id and release out. */
static int probe(struct ssh_var *sv, char *boot_id, size_t idsz, char *release, size_t relsz,
		 char *err, size_t errsz)
{
	struct argv args = {0};
	struct buf out = {0};
	argv_add(&args, sv->workdir);
	variant_plan_tools(sv->vr->p, &args, NULL);
	int rc = ssh_step(sv, "connecting", probe_script, args.v, args.n, NULL, &out, err, errsz);
	if (rc == 0) {
		char workdir[PATH_MAX];
		nth_line(buf_str(&out), 0, workdir, sizeof(workdir));
		nth_line(buf_str(&out), 1, boot_id, idsz);
		nth_line(buf_str(&out), 2, release, relsz);
		free(sv->workdir);
		sv->workdir = xstrdup(workdir);
		const char *m = strstr(buf_str(&out), "missing ");
		if (m) {
			snprintf(err, errsz, "load tool '%.*s' is not installed on %s (boot: ssh copies"
				 " only schedrig; install the tool there)", (int)strcspn(m + 8, "\n"),
				 m + 8, sv->dest);
			rc = -1;
		} else if (!boot_id[0] || !release[0] || workdir[0] != '/') {
			snprintf(err, errsz, "ssh %s: no workdir, boot_id or uname -r in the answer",
				 sv->dest);
			rc = -1;
		}
	}
	argv_free(&args);
	buf_free(&out);
	return rc;
}

static int copy_file(struct ssh_var *sv, const char *local, const char *remote, const char *mode,
		     char *err, size_t errsz)
{
	char *args[] = {(char *)remote, (char *)mode};
	char *doing = xasprintf("copying %s to %s", local, remote);
	int rc = ssh_step(sv, doing, copy_script, args, 2, local, NULL, err, errsz);
	free(doing);
	return rc;
}

/* kexec: load and start the kernel, wait for the machine to come back on it. */
static int do_kexec(struct ssh_var *sv, const char *old_boot_id, char *err, size_t errsz)
{
	const struct cfg_variant *v = sv->vr->v;
	char want[256] = "";
	char *kernel = xasprintf("%s/kexec-kernel", sv->workdir);
	char *initrd = xasprintf("%s/kexec-initrd", sv->workdir);
	struct argv args = {0};
	const char *control_path = sv->t.control_path;
	int rc = -1;

	if (bzimage_release(v->kexec_kernel, want, sizeof(want))) {
		snprintf(err, errsz, "kexec kernel %s: not a readable bzImage", v->kexec_kernel);
		goto out;
	}
	if (copy_file(sv, v->kexec_kernel, kernel, "0644", err, errsz) ||
	    (v->kexec_initrd && copy_file(sv, v->kexec_initrd, initrd, "0644", err, errsz)))
		goto out;
	argv_add(&args, "kexec");
	argv_add(&args, "-l");
	argv_add(&args, kernel);
	if (v->kexec_initrd)
		argv_addf(&args, "--initrd=%s", initrd);
	argv_add(&args, "--reuse-cmdline");
	if (v->kexec_append)
		argv_addf(&args, "--append=%s", v->kexec_append);
	if (ssh_step(sv, "kexec -l", NULL, args.v, args.n, NULL, NULL, err, errsz))
		goto out;
	printf("[%s] ssh: kexec into %s on %s\n", v->name, want, sv->dest);
	fflush(stdout);
	if (ssh_step(sv, "starting kexec", kexec_exec_script, NULL, 0, NULL, NULL, err, errsz))
		goto out;
	ssh_close_master(sv);
	/* No shared connection while the machine goes down and comes back: a
	 * try that reaches the old kernel in its last seconds (kexec -e after
	 * the sleep, services stopping under systemctl kexec) would leave a
	 * master on a connection that dies without a FIN, and the next tries
	 * would hang on it until ServerAlive gives up. */
	sv->t.control_path = NULL;
	double t0 = agent_mono_s();
	for (;;) {
		struct ssh_out o = {0};
		char why[512];
		if (runner_poll_interrupt()) {
			snprintf(err, errsz, "interrupted by %s", strsignal(runner_interrupt_signal()));
			goto out;
		}
		nanosleep(&(struct timespec){(time_t)SSH_RETRY_EVERY_S, 0}, NULL);
		if (ssh_script(sv, facts_script, NULL, 0, NULL, 15, 5, &o, why, sizeof(why)) == 0 &&
		    o.status == 0) {
			char id[128], rel[256], cmdline[4096];
			nth_line(buf_str(&o.out), 0, id, sizeof(id));
			nth_line(buf_str(&o.out), 1, rel, sizeof(rel));
			nth_line(buf_str(&o.out), 2, cmdline, sizeof(cmdline));
			buf_free(&o.out);
			if (id[0] && strcmp(id, old_boot_id)) {
				if (strcmp(rel, want)) {
					snprintf(err, errsz, "after kexec %s runs kernel %s, not %s",
						 sv->dest, rel, want);
					goto out;
				}
				if (v->kexec_append && !strstr(cmdline, v->kexec_append)) {
					snprintf(err, errsz, "after kexec the /proc/cmdline of %s '%s'"
						 " lacks append: '%s'", sv->dest, cmdline,
						 v->kexec_append);
					goto out;
				}
				printf("[%s] ssh: %s is up on %s after %.0f s\n", v->name, sv->dest,
				       rel, agent_mono_s() - t0);
				fflush(stdout);
				rc = 0;
				goto out;
			}
		}
		buf_free(&o.out);
		if (agent_mono_s() - t0 > v->boot_timeout_s) {
			snprintf(err, errsz, "after kexec %s did not answer with a new boot in %.0f s"
				 " (timeout_s)%s%s", sv->dest, v->boot_timeout_s,
				 sv->last_err[0] ? "; last ssh error: " : "", sv->last_err);
			goto out;
		}
	}
out:
	sv->t.control_path = control_path;
	argv_free(&args);
	free(kernel);
	free(initrd);
	return rc;
}

/* Run the agent over ssh, streaming its lines into the session. */
static int run_agent(struct ssh_var *sv, const char *bin, const char *plan,
		     struct agent_session *s, char *err, size_t errsz)
{
	const struct variant_run *vr = sv->vr;
	struct argv words = {0}, a = {0};
	char *stream = xasprintf("%s/%s-agent.jsonl", vr->work_dir, vr->v->name);
	struct ssh_sink k = {.sv = sv, .session = s, .err = err, .errsz = errsz,
			     .stream_fd = open(stream, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)};
	struct spawn c = ssh_spawn(NULL, (struct spawn_io){.kind = SPAWN_PIPE}, &k);
	int rc = -1;

	ssh_wrap_words(&words);
	argv_add(&words, bin);
	argv_add(&words, "agent");
	argv_add(&words, "--watch-stdin");
	argv_add(&words, plan);
	sv->t.connect_timeout_s = SSH_CONNECT_TIMEOUT_S;
	if (ssh_argv(&a, &sv->t, words.v, words.n, err, errsz))
		goto out;
	s->t0_s = agent_mono_s();
	c.argv = a.v;
	if (spawn_start(&c, err, errsz))
		goto out;
	double stop_at = 0;
	int interrupted = 0;
	k.last_s = s->t0_s;
	sv->last_err[0] = '\0';
	while (spawn_poll((struct spawn *[]){&c}, 1, 100) > 0) {
		if (c.exited)
			continue;
		double now = agent_mono_s();
		if (s->end || (s->failed && !interrupted)) {
			/* Done (or hopeless): let the session go. */
			if (c.in_fd >= 0) {
				spawn_close_in(&c);
				stop_at = now + RUNNER_GRACE_S + 10;
			}
		}
		if (!interrupted && runner_poll_interrupt()) {
			interrupted = runner_interrupt_signal();
			spawn_close_in(&c);
			stop_at = now + RUNNER_GRACE_S + 10;
			printf("[%s] ssh: interrupted: stopping the agent on %s\n", vr->v->name,
			       sv->dest);
			fflush(stdout);
		}
		if (stop_at > 0 && now > stop_at)
			break;
		if (stop_at == 0 && !s->hello && now - s->t0_s > vr->v->boot_timeout_s) {
			agent_session_fail(s, err, errsz, "ssh %s: no agent hello %.0f s after ssh"
					   " started (timeout_s=%g)", sv->dest, now - s->t0_s,
					   vr->v->boot_timeout_s);
			break;
		}
		if (stop_at == 0 && s->hello && now - k.last_s > agent_silence_limit_s(vr)) {
			agent_session_fail(s, err, errsz, "the agent on %s was silent for %.0f s",
					   sv->dest, now - k.last_s);
			break;
		}
	}
	spawn_close_in(&c);
	bool exited = c.exited;
	int status = exited ? c.status : -1;
	spawn_kill(&c);
	ssh_note_stderr(sv, buf_str(&k.errtext));
	if (interrupted) {
		s->failed = false;
		agent_session_fail(s, err, errsz, "interrupted by %s", strsignal(interrupted));
	} else if (s->failed) {
		;
	} else if (exited && WIFEXITED(status) && WEXITSTATUS(status) == 255 && !s->hello) {
		ssh_failure(sv, "running the agent", err, errsz);
	} else if (!s->hello) {
		snprintf(err, errsz, "ssh %s: the agent did not start%s%s", sv->dest,
			 sv->last_err[0] ? ": " : "", sv->last_err);
	} else if (!s->end) {
		snprintf(err, errsz, "ssh %s: the agent stopped before it finished%s%s", sv->dest,
			 sv->last_err[0] ? ": " : "", sv->last_err);
	} else if (!s->end_ok) {
		snprintf(err, errsz, "the agent on %s failed: %s", sv->dest, s->end_message);
	} else {
		rc = 0;
	}
out:
	spawn_free(&c);
	if (k.stream_fd >= 0)
		close(k.stream_fd);
	buf_free(&k.partial);
	buf_free(&k.errtext);
	argv_free(&words);
	argv_free(&a);
	free(stream);
	return rc;
}

static int ssh_run(const struct variant_run *vr, char *err, size_t errsz)
{
	const struct cfg_variant *v = vr->v;
	struct ssh_var sv = {.vr = vr};
	struct agent_session s = {.vr = vr, .label = "ssh"};
	char boot_id[128] = "", release[256] = "";
	char *bin = NULL, *plan_remote = NULL, *plan_local = NULL;
	struct argv no_modules = {0};
	int rc = -1;

	sv.workdir = xstrdup(v->workdir ? v->workdir : ""); /* "": the probe's default */
	sv.log = xasprintf("%s/%s-ssh.log", vr->work_dir, v->name);
	sv.known_hosts = xasprintf("%s/%s-known_hosts", vr->work_dir, v->name);
	sv.dest = xasprintf("%s%s%s:%d", v->user ? v->user : "", v->user ? "@" : "", v->host,
			    v->port);
	if (strlen(vr->work_dir) + sizeof("/ssh-") + 40 <= SSH_CTL_PATH_MAX) {
		sv.ctl_dir = xstrdup(vr->work_dir);
	} else {
		sv.ctl_dir = xstrdup("/tmp/schedrig-ssh.XXXXXX");
		if (!mkdtemp(sv.ctl_dir)) {
			snprintf(err, errsz, "mkdtemp %s: %s", sv.ctl_dir, strerror(errno));
			goto out;
		}
		sv.ctl_dir_ours = true;
	}
	char *ctl_dir = ssh_percent_escape(sv.ctl_dir); /* a '%' in --db's directory */
	char *ctl = xasprintf("%s/ssh-%%C", ctl_dir);
	free(ctl_dir);
	const char *config = getenv("SCHEDRIG_SSH_CONFIG");
	sv.t = (struct ssh_target){
		.host = v->host, .port = v->port, .user = v->user, .identity = v->identity,
		.control_path = ctl, .strict_host_key = v->strict_host_key,
		.known_hosts = sv.known_hosts, .config = config && config[0] ? config : NULL,
	};
	if (ssh_target_check(&sv.t, err, errsz) || (sv.workdir[0] && sv.workdir[0] != '/') ||
	    strpbrk(sv.workdir, "\n\r")) {
		if ((sv.workdir[0] && sv.workdir[0] != '/') || strpbrk(sv.workdir, "\n\r"))
			snprintf(err, errsz, "workdir '%s' must be an absolute path on one line",
				 sv.workdir);
		goto out_ctl;
	}
	printf("[%s] ssh: connecting to %s\n", v->name, sv.dest);
	fflush(stdout);
	if (probe(&sv, boot_id, sizeof(boot_id), release, sizeof(release), err, errsz))
		goto out_ctl;
	char want_release[256] = "";
	if (v->kexec_kernel) {
		if (do_kexec(&sv, boot_id, err, errsz))
			goto out_ctl;
		bzimage_release(v->kexec_kernel, want_release, sizeof(want_release));
		/* The workdir may have been a tmpfs of the old boot. */
		if (probe(&sv, boot_id, sizeof(boot_id), release, sizeof(release), err, errsz))
			goto out_ctl;
	}
	char agent[PATH_MAX];
	if (agent_binary_find(vr->self_exe, agent, sizeof(agent), err, errsz))
		goto out_ctl;
	bin = xasprintf("%s/bin/schedrig-agent", sv.workdir);
	plan_remote = xasprintf("%s/plan-%s.json", sv.workdir, v->name);
	plan_local = xasprintf("%s/%s-plan.json", vr->work_dir, v->name);
	char *text = agent_host_plan(vr, &no_modules);
	FILE *f = fopen(plan_local, "w");
	bool written = f && fputs(text, f) >= 0;
	if (f && fclose(f))
		written = false;
	free(text);
	if (!written) {
		snprintf(err, errsz, "cannot write %s: %s", plan_local, strerror(errno));
		goto out_ctl;
	}
	char *version[] = {bin, "version"};
	if (copy_file(&sv, agent, bin, "0755", err, errsz) ||
	    copy_file(&sv, plan_local, plan_remote, "0644", err, errsz))
		goto out_ctl;
	if (ssh_step(&sv, "running schedrig-agent there", NULL, version, 2, NULL, NULL, err,
		     errsz))
		goto out_ctl;
	s.where = sv.dest;
	s.want_release = want_release;
	s.want_cmdline = v->kexec_kernel ? v->kexec_append : NULL;
	rc = run_agent(&sv, bin, plan_remote, &s, err, errsz);
	if (!runner_interrupt_signal()) {
		char *rm[] = {"rm", "-f", plan_remote};
		char why[256];
		ssh_step(&sv, "removing the plan file", NULL, rm, 3, NULL, NULL, why, sizeof(why));
	}
out_ctl:
	ssh_close_master(&sv);
	free(ctl);
out:
	if (sv.ctl_dir_ours)
		rmdir(sv.ctl_dir);
	agent_session_free(&s);
	free(bin);
	free(plan_remote);
	free(plan_local);
	free(sv.ctl_dir);
	free(sv.log);
	free(sv.known_hosts);
	free(sv.dest);
	free(sv.workdir);
	return rc;
}

/* Before anything runs: what only the remote machine can tell (its tools
 * are checked when the variant starts, before its first load). */
static void ssh_preflight(struct preflight *pf, const struct cfg_variant *v)
{
	for (size_t l = 0; l < pf->e->n_loads; l++)
		if (plan_uses_latency_nice(pf->p, &pf->e->loads[l]))
			preflight_warn(pf, v->name, pf->e->loads[l].name, "latency_nice: whether the"
				       " kernel of %s supports it is known when the variant starts",
				       v->host);
	if (knobs_count(v) && v->user && strcmp(v->user, "root"))
		preflight_warn(pf, v->name, NULL, "its knobs need root on %s, and the variant logs in"
			       " as %s", v->host, v->user);
}

const struct variant_backend ssh_backend = {
	.name = "ssh",
	.run = ssh_run,
	.preflight = ssh_preflight,
};
