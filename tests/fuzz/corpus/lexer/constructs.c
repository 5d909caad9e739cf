// Hand-written seed: every rule's constructs, positive and negative.
#define COPY(d, s) strcpy(d, s)
#define strcpy my_strcpy
char *strcpy(char *dst, const char *src);
static DEFINE_IDR(seed_idr);
struct hdr { int n; unsigned char data[0]; };
struct one { int n; char name[1]; };
enum { SEED_MAX = 8 };
int seed_sendmsg(struct socket *sock, size_t n, const char *s)
{
	const int k = 4;
	char vla[n];
	char fixed[SEED_MAX * k];
	struct hdr *h = kmalloc(sizeof(*h) + n * sizeof(u32), GFP_KERNEL);
	void *p = kzalloc(2 * PAGE_SIZE, GFP_KERNEL);
	long v = simple_strtoul(s, NULL, 10);

	if (WARN_ON(!sock))	/* strcpy(in, "comment") */
		return -EINVAL;
	switch (n) {
	case 1:
		strlcpy(fixed, s, sizeof(fixed));
		/* fall through */
	case 2:
		strncpy(fixed, "str\"cpy(", sizeof(fixed));
		// FALLTHRU
	default:
		x->strcpy(fixed, s);
		BUG_ON(v < 0 && '"' == '\'');
	}
	pr_info("%p %pS %%p\n", p, p);
	kmap_atomic(page);
	BUG();
	return __deprecated_seed(kmalloc_array(n, sizeof(*h), GFP_KERNEL));
}
