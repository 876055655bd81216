/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.advise;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.classification.InterfaceAudience;

/**
 * A JobHistoryServer's REST API ({@code /ws/v1/history/mapreduce}, Hadoop's "MapReduce History
 * Server REST API"): the jobs started in a time range, of a user; then per job its tasks, the
 * attempts of its reduce tasks, the critical reduce's counters, the job's counters and its
 * configuration. A job of R reduces costs R + 5 requests. Map times are the tasks' (the first
 * attempt's start, the successful attempt's finish), which the API gives in one answer.
 */
@InterfaceAudience.Private
final class HistoryServer {
  static final String API = "/ws/v1/history/mapreduce";
  private static final int TIMEOUT_MS = 30_000;

  private final String base;
  private final ObjectMapper json = new ObjectMapper();

  /** @param address the server's web address, e.g. http://jhs:19888 (http:// if no scheme) */
  HistoryServer(String address) {
    String a = address.contains("://") ? address : "http://" + address;
    this.base = a.endsWith("/") ? a.substring(0, a.length() - 1) : a;
  }

  /** The ids of the jobs the filter selects on the server (the name is matched by the caller). */
  List<String> jobIds(JobFilter filter) throws AdviseException {
    StringBuilder query = new StringBuilder("?limit=").append(filter.limit());
    if (filter.user() != null) {
      query.append("&user=").append(URLEncoder.encode(filter.user(), StandardCharsets.UTF_8));
    }
    if (filter.startedFrom() != null) {
      query.append("&startedTimeBegin=").append(filter.startedFrom());
    }
    if (filter.startedTo() != null) {
      query.append("&startedTimeEnd=").append(filter.startedTo());
    }
    List<String> ids = new ArrayList<>();
    for (JsonNode job : elements(get("/jobs" + query).path("jobs").path("job"))) {
      if (filter.nameMatches(job.path("name").asText())) {
        ids.add(job.path("id").asText());
      }
    }
    return ids;
  }

  /** One job's history. */
  JobRun job(String id) throws AdviseException {
    String path = "/jobs/" + id;
    JsonNode job = field(get(path), "job", path);
    List<JobRun.TaskSpan> maps = new ArrayList<>();
    List<String[]> reduceTasks = new ArrayList<>();
    for (JsonNode task : elements(get(path + "/tasks").path("tasks").path("task"))) {
      if (!"SUCCEEDED".equals(task.path("state").asText())) {
        continue;
      }
      if ("MAP".equals(task.path("type").asText())) {
        maps.add(
            new JobRun.TaskSpan(task.path("startTime").asLong(), task.path("finishTime").asLong()));
      } else if ("REDUCE".equals(task.path("type").asText())) {
        reduceTasks.add(
            new String[] {task.path("id").asText(), task.path("successfulAttempt").asText()});
      }
    }
    List<JobRun.ReduceSpan> reduces = new ArrayList<>();
    List<String> reduceTaskIds = new ArrayList<>();
    for (String[] task : reduceTasks) {
      String attempts = path + "/tasks/" + task[0] + "/attempts";
      for (JsonNode a : elements(get(attempts).path("taskAttempts").path("taskAttempt"))) {
        if (a.path("id").asText().equals(task[1])) {
          reduces.add(
              new JobRun.ReduceSpan(
                  task[1],
                  a.path("nodeHttpAddress").asText().replaceFirst(":\\d+$", ""),
                  a.path("startTime").asLong(),
                  a.path("shuffleFinishTime").asLong(),
                  a.path("mergeFinishTime").asLong(),
                  a.path("finishTime").asLong(),
                  -1,
                  -1));
          reduceTaskIds.add(task[0]);
        }
      }
    }
    if (!reduces.isEmpty()) {
      int crit = indexOfLatest(reduces);
      reduces.set(
          crit, withCounters(path + "/tasks/" + reduceTaskIds.get(crit), reduces.get(crit)));
    }
    return new JobRun(
        id,
        job.path("name").asText(),
        job.path("user").asText(),
        job.path("queue").asText(),
        job.path("state").asText(),
        job.path("submitTime").asLong(),
        job.path("finishTime").asLong(),
        job.path("uberized").asBoolean(false),
        maps,
        reduces,
        job.path("failedMapAttempts").asInt() + job.path("failedReduceAttempts").asInt(),
        job.path("killedMapAttempts").asInt() + job.path("killedReduceAttempts").asInt(),
        jobCounters(path),
        conf(path),
        base + API + path);
  }

  private static int indexOfLatest(List<JobRun.ReduceSpan> reduces) {
    int latest = 0;
    for (int i = 1; i < reduces.size(); i++) {
      if (reduces.get(i).finish() > reduces.get(latest).finish()) {
        latest = i;
      }
    }
    return latest;
  }

  /** The critical reduce with the two counters the breakdown reads. */
  private JobRun.ReduceSpan withCounters(String taskPath, JobRun.ReduceSpan r)
      throws AdviseException {
    Map<String, Long> counters = new HashMap<>();
    JsonNode answer = get(taskPath + "/attempts/" + r.attempt() + "/counters");
    for (JsonNode group :
        elements(answer.path("jobTaskAttemptCounters").path("taskAttemptCounterGroup"))) {
      for (JsonNode c : elements(group.path("counter"))) {
        counters.put(
            group.path("counterGroupName").asText() + "." + c.path("name").asText(),
            c.path("value").asLong());
      }
    }
    return new JobRun.ReduceSpan(
        r.attempt(),
        r.host(),
        r.start(),
        r.shuffleEnd(),
        r.sortEnd(),
        r.finish(),
        counters.getOrDefault(JobRun.TASK_GROUP + "." + JobRun.CPU_MILLISECONDS, -1L),
        counters.getOrDefault(JobRun.OUTPUT_WRITE_GROUP + "." + JobRun.OUTPUT_WRITE_MILLIS, -1L));
  }

  private Map<String, Long> jobCounters(String path) throws AdviseException {
    Map<String, Long> counters = new HashMap<>();
    for (JsonNode group :
        elements(get(path + "/counters").path("jobCounters").path("counterGroup"))) {
      for (JsonNode c : elements(group.path("counter"))) {
        counters.put(
            group.path("counterGroupName").asText() + "." + c.path("name").asText(),
            c.path("totalCounterValue").asLong());
      }
    }
    return counters;
  }

  private Map<String, String> conf(String path) throws AdviseException {
    List<Map.Entry<String, String>> props = new ArrayList<>();
    for (JsonNode p : elements(get(path + "/conf").path("conf").path("property"))) {
      props.add(new AbstractMap.SimpleEntry<>(p.path("name").asText(), p.path("value").asText()));
    }
    return JobConfKeys.select(props);
  }

  /**
   * The items of a list in an answer. Hadoop 3.5's server (Jersey 2) writes a list of one item as
   * that item alone, not as an array of one, where earlier servers (Jersey 1) always wrote an
   * array; an empty list may be left out.
   */
  static List<JsonNode> elements(JsonNode list) {
    List<JsonNode> items = new ArrayList<>();
    if (list.isArray()) {
      list.forEach(items::add);
    } else if (list.isObject()) {
      items.add(list);
    }
    return items;
  }

  private static JsonNode field(JsonNode answer, String name, String path) throws AdviseException {
    if (!answer.has(name)) {
      throw new AdviseException(
          path, "the JobHistoryServer's answer has no '" + name + "': " + answer);
    }
    return answer.get(name);
  }

  private JsonNode get(String path) throws AdviseException {
    String url = base + API + path;
    HttpURLConnection c = null;
    try {
      c = (HttpURLConnection) URI.create(url).toURL().openConnection();
      c.setConnectTimeout(TIMEOUT_MS);
      c.setReadTimeout(TIMEOUT_MS);
      c.setRequestProperty("Accept", "application/json");
      int status = c.getResponseCode();
      if (status != HttpURLConnection.HTTP_OK) {
        throw new AdviseException(
            url,
            "the JobHistoryServer answered HTTP "
                + status
                + (status == HttpURLConnection.HTTP_NOT_FOUND
                    ? " (no such job, or not a JobHistoryServer at " + base + ")"
                    : ""));
      }
      try (InputStream in = c.getInputStream()) {
        JsonNode answer = json.readTree(in);
        if (answer == null || !answer.isObject()) {
          throw new AdviseException(url, "the answer is not a JSON object");
        }
        return answer;
      }
    } catch (AdviseException e) {
      throw e;
    } catch (FileNotFoundException e) {
      throw new AdviseException(url, "not found on the JobHistoryServer");
    } catch (IOException | IllegalArgumentException e) {
      throw new AdviseException(
          url,
          "cannot read the JobHistoryServer's answer ("
              + e
              + "); is a JobHistoryServer at "
              + base
              + "? (its address is mapreduce.jobhistory.webapp.address, port 19888 by default)",
          e);
    } finally {
      if (c != null) {
        c.disconnect();
      }
    }
  }
}
