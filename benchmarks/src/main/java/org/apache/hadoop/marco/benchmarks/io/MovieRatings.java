/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.marco.benchmarks.io;

import java.util.Arrays;
import org.apache.hadoop.io.Text;

/**
 * One line of the Netflix-style ratings data, {@code movie_id:rater_rating,rater_rating,...}
 * (for example {@code 17:1234_4,5678_3}), optionally prefixed by {@code cluster<TAB>} as k-means
 * writes it for its next round. Raters are kept sorted so the cosine similarity is a merge.
 */
public final class MovieRatings {
  private final long movieId;
  private final int[] raters;
  private final byte[] ratings;

  private MovieRatings(long movieId, int[] raters, byte[] ratings) {
    this.movieId = movieId;
    this.raters = raters;
    this.ratings = ratings;
  }

  public long movieId() {
    return movieId;
  }

  public int size() {
    return raters.length;
  }

  public int rater(int i) {
    return raters[i];
  }

  public int rating(int i) {
    return ratings[i];
  }

  /** Mean rating, 0 for a movie without ratings. */
  public double averageRating() {
    if (ratings.length == 0) {
      return 0;
    }
    long sum = 0;
    for (byte r : ratings) {
      sum += r;
    }
    return (double) sum / ratings.length;
  }

  /** Cosine similarity of the two rating vectors over raters (0 when either is empty). */
  public double cosine(MovieRatings other) {
    long dot = 0;
    int i = 0;
    int j = 0;
    while (i < raters.length && j < other.raters.length) {
      if (raters[i] < other.raters[j]) {
        i++;
      } else if (raters[i] > other.raters[j]) {
        j++;
      } else {
        dot += ratings[i++] * other.ratings[j++];
      }
    }
    double norms = Math.sqrt(squaredNorm()) * Math.sqrt(other.squaredNorm());
    return norms == 0 ? 0 : dot / norms;
  }

  private long squaredNorm() {
    long sum = 0;
    for (byte r : ratings) {
      sum += r * r;
    }
    return sum;
  }

  /** Parses a line; the error names the line so bad input is easy to find. */
  public static MovieRatings parse(Text line) {
    return parse(line.getBytes(), line.getLength());
  }

  public static MovieRatings parse(String line) {
    Text text = new Text(line);
    return parse(text);
  }

  private static MovieRatings parse(byte[] b, int length) {
    int pos = 0;
    for (int i = 0; i < length; i++) {
      if (b[i] == '\t') {
        pos = i + 1;
        break;
      }
    }
    long movie = 0;
    int digits = 0;
    while (pos < length && b[pos] != ':') {
      movie = movie * 10 + digit(b, pos, length);
      pos++;
      digits++;
    }
    if (digits == 0 || pos >= length) {
      throw badLine(b, length, "expected movie_id:rater_rating,...");
    }
    pos++;
    int capacity = 0;
    for (int i = pos; i < length; i++) {
      if (b[i] == '_') {
        capacity++;
      }
    }
    int[] raters = new int[capacity];
    byte[] ratings = new byte[capacity];
    int n = 0;
    while (pos < length) {
      int rater = 0;
      int start = pos;
      while (pos < length && b[pos] != '_') {
        rater = rater * 10 + digit(b, pos, length);
        pos++;
      }
      if (pos == start || pos + 1 >= length) {
        throw badLine(b, length, "expected rater_rating after position " + start);
      }
      int rating = digit(b, pos + 1, length);
      if (rating < 1 || rating > 5) {
        throw badLine(b, length, "rating " + rating + " of rater " + rater + " is not in 1..5");
      }
      raters[n] = rater;
      ratings[n] = (byte) rating;
      n++;
      pos += 2;
      if (pos < length && b[pos] != ',') {
        throw badLine(b, length, "expected ',' at position " + pos);
      }
      pos++;
    }
    return sortedByRater(movie, raters, ratings);
  }

  private static MovieRatings sortedByRater(long movie, int[] raters, byte[] ratings) {
    boolean sorted = true;
    for (int i = 1; i < raters.length && sorted; i++) {
      sorted = raters[i - 1] < raters[i];
    }
    if (sorted) {
      return new MovieRatings(movie, raters, ratings);
    }
    long[] packed = new long[raters.length];
    for (int i = 0; i < raters.length; i++) {
      packed[i] = ((long) raters[i] << 8) | ratings[i];
    }
    Arrays.sort(packed);
    for (int i = 0; i < packed.length; i++) {
      raters[i] = (int) (packed[i] >>> 8);
      ratings[i] = (byte) (packed[i] & 0xff);
    }
    return new MovieRatings(movie, raters, ratings);
  }

  private static int digit(byte[] b, int pos, int length) {
    int d = b[pos] - '0';
    if (d < 0 || d > 9) {
      throw badLine(b, length, "non-digit '" + (char) b[pos] + "' at position " + pos);
    }
    return d;
  }

  private static IllegalArgumentException badLine(byte[] b, int length, String problem) {
    String text = new String(b, 0, Math.min(length, 80), java.nio.charset.StandardCharsets.UTF_8);
    return new IllegalArgumentException(
        "Not a ratings line ("
            + problem
            + "): '"
            + text
            + (length > 80 ? "...'" : "'")
            + ". Ratings input must be movie_id:rater_rating,... lines as gen-ratings writes"
            + " them.");
  }
}
