#!/bin/sh
# embed.sh NAME < file > file.c - embed a text file as a C string NAME.
name=$1
printf 'const char %s[] =\n' "$name"
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/\t"/' -e 's/$/\\n"/'
printf ';\n'
