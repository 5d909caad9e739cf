int x = sizeof("unterminated
/* open comment
void f(void) { strcpy(a, b); ((((((((((x))))))))));