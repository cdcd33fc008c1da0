/* A kernel image's BTF (kernel_btf.h). */
#include "kernel_btf.h"

#include <elf.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BTF_MAGIC 0xeB9F
#define BTF_KIND_INT 1
#define BTF_KIND_ARRAY 3
#define BTF_KIND_STRUCT 4
#define BTF_KIND_UNION 5
#define BTF_KIND_ENUM 6
#define BTF_KIND_FUNC_PROTO 13
#define BTF_KIND_VAR 14
#define BTF_KIND_DATASEC 15
#define BTF_KIND_DECL_TAG 17
#define BTF_KIND_ENUM64 19

static uint32_t u32_at(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The blob's string and type areas. */
struct btf {
	const unsigned char *types, *strs;
	size_t types_len, strs_len;
};

static int btf_open(const void *data, size_t len, struct btf *b)
{
	const unsigned char *p = data;
	if (len < 24 || (p[0] | p[1] << 8) != BTF_MAGIC || p[2] != 1)
		return -1;
	uint64_t hdr = u32_at(p + 4), toff = u32_at(p + 8), tlen = u32_at(p + 12);
	uint64_t soff = u32_at(p + 16), slen = u32_at(p + 20);
	if (hdr < 24 || hdr + toff + tlen > len || hdr + soff + slen > len)
		return -1;
	*b = (struct btf){p + hdr + toff, p + hdr + soff, (size_t)tlen, (size_t)slen};
	return 0;
}

/* Whether the string at off equals s. */
static bool str_is(const struct btf *b, uint32_t off, const char *s)
{
	size_t n = strlen(s);
	return off < b->strs_len && b->strs_len - off > n && !memcmp(b->strs + off, s, n + 1);
}

/* Bytes after a type's 12-byte header for its kind and vlen. */
static size_t extra_size(unsigned kind, size_t vlen)
{
	switch (kind) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_ARRAY:
		return 12;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_DATASEC:
	case BTF_KIND_ENUM64:
		return vlen * 12;
	case BTF_KIND_ENUM:
	case BTF_KIND_FUNC_PROTO:
		return vlen * 8;
	}
	return 0;
}

/* Walk every type; for each of kind want (or want2) whose name matches
 * name (NULL: any), look for an entry of its vlen entries (each step bytes,
 * name_off first) named entry. 1 found, 0 not, -1 malformed. */
static int btf_search(const void *data, size_t len, unsigned want, unsigned want2,
		      const char *name, size_t step, const char *entry)
{
	struct btf b;
	if (btf_open(data, len, &b))
		return -1;
	for (size_t off = 0; off < b.types_len;) {
		if (b.types_len - off < 12)
			return -1;
		const unsigned char *t = b.types + off;
		uint32_t info = u32_at(t + 4);
		unsigned kind = (info >> 24) & 0x1f;
		size_t vlen = info & 0xffff, extra = extra_size(kind, vlen);
		if (b.types_len - off - 12 < extra)
			return -1;
		if ((kind == want || kind == want2) && (!name || str_is(&b, u32_at(t), name)))
			for (size_t i = 0; i < vlen; i++)
				if (str_is(&b, u32_at(t + 12 + i * step), entry))
					return 1;
		off += 12 + extra;
	}
	return 0;
}

int btf_struct_has_member(const void *btf, size_t len, const char *st, const char *member)
{
	return btf_search(btf, len, BTF_KIND_STRUCT, BTF_KIND_UNION, st, 12, member);
}

int btf_has_enumerator(const void *btf, size_t len, const char *name)
{
	int r = btf_search(btf, len, BTF_KIND_ENUM, BTF_KIND_ENUM, NULL, 8, name);
	return r ? r : btf_search(btf, len, BTF_KIND_ENUM64, BTF_KIND_ENUM64, NULL, 12, name);
}

static bool read_at(int fd, void *dst, size_t n, uint64_t off)
{
	return pread(fd, dst, n, (off_t)off) == (ssize_t)n;
}

int elf_btf_section(const char *path, struct buf *b)
{
	Elf64_Ehdr eh;
	Elf64_Shdr strs, sh;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int rc = -1;

	if (fd < 0)
		return -1;
	if (!read_at(fd, &eh, sizeof(eh), 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shstrndx >= eh.e_shnum ||
	    !read_at(fd, &strs, sizeof(strs), eh.e_shoff + (uint64_t)eh.e_shstrndx * sizeof(sh)))
		goto out;
	for (unsigned i = 0; i < eh.e_shnum && rc; i++) {
		char name[5];
		if (!read_at(fd, &sh, sizeof(sh), eh.e_shoff + (uint64_t)i * sizeof(sh)) ||
		    sh.sh_name >= strs.sh_size || strs.sh_size - sh.sh_name < sizeof(name) ||
		    !read_at(fd, name, sizeof(name), strs.sh_offset + sh.sh_name) ||
		    memcmp(name, ".BTF", sizeof(name)) || sh.sh_size > (1ULL << 30))
			continue;
		char *data = malloc(sh.sh_size ? sh.sh_size : 1);
		if (data && read_at(fd, data, sh.sh_size, sh.sh_offset)) {
			buf_append(b, data, sh.sh_size);
			rc = 0;
		}
		free(data);
	}
out:
	close(fd);
	return rc;
}
