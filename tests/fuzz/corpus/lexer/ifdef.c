#if 0
void f(void) {
#else
void f(void) {
#endif
	strcpy(a, "\
 b");
	c = '\'';
}
