/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.advise;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * {@code mapred marco-advise}: which jobs MaRCO would speed up, predicted from their stock job
 * histories by the model of docs/model.md. Reads a JobHistoryServer's REST API, history
 * directories on any Hadoop file system (the JobHistoryServer's done directory) and single .jhist
 * files; needs nothing of MaRCO on the cluster. docs/advisor.md describes its use and output.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class MarcoAdvise {
  static final int OK = 0;
  static final int BAD_INPUT = 2;

  static final String USAGE =
      String.join(
          "\n",
          "Usage: mapred marco-advise [OPTIONS] [HISTORY...]",
          "",
          "Predicts, from stock job histories, how much faster MaRCO would run each job, which",
          "term bounds the gain (final work, network or CPU), which partial reducer it would run,",
          "and recommends; ends with the jobs ranked by predicted time saved (docs/advisor.md).",
          "",
          "Sources (at least one; any mix):",
          "  HISTORY               a .jhist file, or a directory searched recursively for them",
          "                        (the JobHistoryServer's done directory, e.g.",
          "                        hdfs:///tmp/hadoop-yarn/staging/history/done), on any Hadoop",
          "                        file system; the job's JOBID_conf.xml is read from beside it.",
          "                        A path without a scheme is a local file where one exists,",
          "                        else a path of the default file system (fs.defaultFS)",
          "  --history-server URL  a JobHistoryServer's web address, e.g. http://jhs:19888",
          "                        (mapreduce.jobhistory.webapp.address); its REST API lists",
          "                        the jobs, then each job's tasks, attempts and configuration",
          "",
          "Filters (on every source):",
          "  --from TIME           jobs started at or after TIME",
          "  --to TIME             jobs started at or before TIME; TIME is epoch milliseconds or",
          "                        ISO-8601: 2026-01-31 (--from: its start, --to: its end),",
          "                        2026-01-31T08:00 (UTC), 2026-01-31T08:00+01:00",
          "  --user USER           jobs of USER",
          "  --name REGEX          jobs whose name contains a match of REGEX (Java syntax)",
          "  --limit N             at most N jobs from the JobHistoryServer (default "
              + JobFilter.DEFAULT_LIMIT
              + ")",
          "",
          "Output:",
          "  --json                one JSON document: jobs (ranked), errors",
          "  --help                this text",
          "",
          "Exit status: 0 when every source was read; 2 on a usage error, or when a source could",
          "not be read (each is named on stderr with its problem; the others are still reported).");

  private final Configuration conf;

  public MarcoAdvise(Configuration conf) {
    this.conf = conf;
  }

  public static void main(String[] args) {
    System.exit(new MarcoAdvise(new Configuration()).run(args, System.out, System.err));
  }

  /** Runs the advisor; returns the exit status. */
  public int run(String[] args, PrintStream out, PrintStream err) {
    Options o;
    try {
      o = Options.parse(args);
    } catch (IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      err.println("fix:   see mapred marco-advise --help");
      return BAD_INPUT;
    }
    if (o.help) {
      out.println(USAGE);
      return OK;
    }
    List<Advice> advice = new ArrayList<>();
    List<AdviseException> errors = new ArrayList<>();
    for (String history : o.histories) {
      readFiles(history, o.filter, advice, errors);
    }
    if (o.historyServer != null) {
      readServer(new HistoryServer(o.historyServer), o.filter, advice, errors);
    }
    for (AdviseException e : errors) {
      err.println("error: " + e.getMessage());
    }
    AdviceReport report = new AdviceReport(advice, errors);
    try {
      if (o.json) {
        report.printJson(out);
      } else if (advice.isEmpty()) {
        out.println("No job matched the filters in the sources given.");
      } else {
        report.printText(out);
      }
    } catch (IOException e) {
      err.println("error: cannot write the output: " + e.getMessage());
      return BAD_INPUT;
    }
    return errors.isEmpty() ? OK : BAD_INPUT;
  }

  private void readFiles(
      String history, JobFilter filter, List<Advice> advice, List<AdviseException> errors) {
    Path path = resolve(history);
    List<Path> files;
    FileSystem fs;
    try {
      fs = path.getFileSystem(conf);
    } catch (IOException e) {
      errors.add(new AdviseException(history, "no file system for it: " + e.getMessage(), e));
      return;
    }
    try {
      files = HistoryFiles.find(fs, path);
    } catch (AdviseException e) {
      errors.add(e);
      return;
    }
    for (Path file : files) {
      try {
        JobRun job = HistoryFiles.read(fs, file);
        if (filter.matches(job)) {
          advice.add(Advice.of(job));
        }
      } catch (AdviseException e) {
        errors.add(e);
      }
    }
  }

  private static void readServer(
      HistoryServer server, JobFilter filter, List<Advice> advice, List<AdviseException> errors) {
    List<String> ids;
    try {
      ids = server.jobIds(filter);
    } catch (AdviseException e) {
      errors.add(e);
      return;
    }
    for (String id : ids) {
      try {
        advice.add(Advice.of(server.job(id)));
      } catch (AdviseException e) {
        errors.add(e);
      }
    }
  }

  /** A path without a scheme is a local file where one exists, else of the default FS. */
  private static Path resolve(String history) {
    URI uri = new Path(history).toUri();
    if (uri.getScheme() == null && new File(history).exists()) {
      return new Path(new File(history).getAbsoluteFile().toURI());
    }
    return new Path(history);
  }

  /** The command line. */
  static final class Options {
    final List<String> histories = new ArrayList<>();
    String historyServer;
    boolean json;
    boolean help;
    JobFilter filter;

    static Options parse(String[] args) {
      Options o = new Options();
      String user = null;
      Pattern name = null;
      Long from = null;
      Long to = null;
      int limit = JobFilter.DEFAULT_LIMIT;
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        switch (a) {
          case "--help", "-h" -> o.help = true;
          case "--json" -> o.json = true;
          case "--history-server" -> o.historyServer = value(args, ++i, a);
          case "--user" -> user = value(args, ++i, a);
          case "--name" -> name = regex(value(args, ++i, a));
          case "--from" -> from = time(value(args, ++i, a), false);
          case "--to" -> to = time(value(args, ++i, a), true);
          case "--limit" -> limit = positive(value(args, ++i, a));
          default -> {
            if (a.startsWith("-")) {
              throw new IllegalArgumentException("unknown option '" + a + "'");
            }
            o.histories.add(a);
          }
        }
      }
      if (!o.help && o.histories.isEmpty() && o.historyServer == null) {
        throw new IllegalArgumentException(
            "no source given: name .jhist files or history directories, or --history-server URL");
      }
      if (from != null && to != null && from > to) {
        throw new IllegalArgumentException("--from is after --to");
      }
      o.filter = new JobFilter(user, name, from, to, limit);
      return o;
    }

    private static String value(String[] args, int i, String option) {
      if (i >= args.length || args[i].startsWith("--")) {
        throw new IllegalArgumentException("option " + option + " needs a value");
      }
      return args[i];
    }

    private static Pattern regex(String value) {
      try {
        return Pattern.compile(value);
      } catch (PatternSyntaxException e) {
        throw new IllegalArgumentException(
            "--name " + value + " is not a regular expression: " + e.getDescription());
      }
    }

    private static int positive(String value) {
      try {
        int n = Integer.parseInt(value);
        if (n > 0) {
          return n;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new IllegalArgumentException("--limit " + value + " is not a positive whole number");
    }

    /** Epoch ms, or an ISO-8601 date, local date-time (UTC) or date-time with an offset. */
    static long time(String value, boolean endOfDay) {
      if (value.matches("\\d+")) {
        return Long.parseLong(value);
      }
      try {
        LocalDate day = LocalDate.parse(value);
        LocalDate start = endOfDay ? day.plusDays(1) : day;
        long ms = start.atStartOfDay().toInstant(ZoneOffset.UTC).toEpochMilli();
        return endOfDay ? ms - 1 : ms;
      } catch (DateTimeParseException e) {
        // not a date alone
      }
      try {
        return LocalDateTime.parse(value).toInstant(ZoneOffset.UTC).toEpochMilli();
      } catch (DateTimeParseException e) {
        // not a local date-time
      }
      try {
        return OffsetDateTime.parse(value).toInstant().toEpochMilli();
      } catch (DateTimeParseException e) {
        // not a date-time with an offset
      }
      try {
        return Instant.parse(value).toEpochMilli();
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException(
            "'"
                + value
                + "' is not a time: give epoch milliseconds or ISO-8601 such as 2026-01-31 or"
                + " 2026-01-31T08:00");
      }
    }
  }
}
