/* function bodies the lexer skims, and bodies it gives up on */
static int f(struct s *p)
{
	const int k = 3, *q = g(1);
	char buf[32 + SZ], c = '{', d[4][N];
	/* } x( */ // }
	if (p->h(x) && s.i(y)) { j("}(", k); }
	p->a.b = 1; o.sendmsg = z;
	return MAX(k(), 2) + \
		sizeof(struct s) + l	(3) + 1e+x + 0x1fUL + .5;
}
int m(void) { return f(0); }
void n(int v)
{
	int a[v];
	strcpy(a, "x");
	pr_info("%p", a);
	switch (v) {
	case 1:
		g();
		/* fall through */
	case 2:
		break;
	}
}
void f2(void)
{
	if (a) {
#ifdef A
	}
#else
	}
#endif
	while (g(x)) {
		h();
	}
}
