/* Answers each line of standard input through occcalc_json, from 8 threads at
 * once, and writes the answers in input order, one a line: what `occcalc
 * batch` prints for the same lines, but that a request that is not JSON is
 * "the request" rather than "line N" (tests/capi_json.py compares the two).
 * C99, built with -Wall -Wextra -Wpedantic -Werror. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"

enum { threads = 8 };

struct lines {
  char **text;
  char **answers;
  size_t count;
};

struct share {
  struct lines *lines;
  size_t first;
};

/* One line of `in` without its newline, or NULL at the end. */
static char *read_line(FILE *in) {
  size_t size = 0, room = 256;
  char *line = malloc(room);
  int c;
  if (line == NULL) return NULL;
  while ((c = fgetc(in)) != EOF && c != '\n') {
    if (size + 1 == room) {
      char *more = realloc(line, room *= 2);
      if (more == NULL) {
        free(line);
        return NULL;
      }
      line = more;
    }
    line[size++] = (char)c;
  }
  if (c == EOF && size == 0) {
    free(line);
    return NULL;
  }
  line[size] = '\0';
  return line;
}

/* Every `threads`-th line from `first`. */
static void *answer(void *arg) {
  const struct share *share = arg;
  size_t i;
  for (i = share->first; i < share->lines->count; i += threads) {
    share->lines->answers[i] = occcalc_json(share->lines->text[i]);
  }
  return NULL;
}

int main(void) {
  struct lines lines = {NULL, NULL, 0};
  size_t room = 0, i;
  pthread_t thread[threads];
  struct share shares[threads];
  char *line;
  while ((line = read_line(stdin)) != NULL) {
    if (lines.count == room) {
      char **more = realloc(lines.text, (room = room ? room * 2 : 1024) * sizeof *more);
      if (more == NULL) return 1;
      lines.text = more;
    }
    lines.text[lines.count++] = line;
  }
  lines.answers = calloc(lines.count ? lines.count : 1, sizeof *lines.answers);
  if (lines.answers == NULL) return 1;
  for (i = 0; i < threads; ++i) {
    shares[i].lines = &lines;
    shares[i].first = i;
    if (pthread_create(&thread[i], NULL, answer, &shares[i]) != 0) return 1;
  }
  for (i = 0; i < threads; ++i) pthread_join(thread[i], NULL);
  for (i = 0; i < lines.count; ++i) {
    if (lines.answers[i] == NULL) return 1;
    puts(lines.answers[i]);
    occcalc_free(lines.answers[i]);
    free(lines.text[i]);
  }
  fprintf(stderr, "occcalc %s: %lu requests answered from %d threads\n", occcalc_version(),
          (unsigned long)lines.count, threads);
  free(lines.text);
  free(lines.answers);
  return 0;
}
