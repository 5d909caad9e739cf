#include <linux/string.h>
#define COPY(d, s) strcpy(d, s)
struct s { int n; char data[0]; };
struct t { int n; char data[1]; };
static DEFINE_IDR(my_idr);
int __deprecated old(void);
int rds_sendmsg(struct socket *sock, int n)
{
	char buf[16], vla[n];
	unsigned long v;

	if (WARN_ON(!sock))
		return -EINVAL;
	WARN_ON_ONCE(n > 3);
	strcpy(buf, "x");
	strncpy(buf, "y", 2);
	strlcpy(buf, "z", sizeof(buf));
	/* strcpy(buf, "in a comment"); */
	printk("strcpy(%p) %pK\n", buf, buf);
	p = kmalloc(n * sizeof(*p), GFP_KERNEL);
	q = kzalloc(sizeof(*q), GFP_KERNEL);
	v = simple_strtoul("12", NULL, 10);
	switch (n) {
	case 1:
		n++;
		/* fall through */
	case 2:
		kmap(page);
		kmap_atomic(page);
		break;
	}
	idr_init(&my_idr);
	BUG_ON(sock == NULL);
	BUG();
	return 0;
}
