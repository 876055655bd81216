/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.advise;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/**
 * The JobHistoryServer path against an in-test HTTP server that answers with the shapes of
 * Hadoop's MapReduce History Server REST API (jobs, job, tasks, task attempts, attempt counters,
 * job counters, conf), as recorded from its documentation.
 */
public class TestHistoryServerRest {
  private static final String JOB = "job_1700000000000_0001";
  private static final String API = HistoryServer.API;
  private static final long T0 = HistoryBuilder.T0;

  private HttpServer server;
  private final Map<String, String> answers = new HashMap<>();
  private final List<String> asked = new ArrayList<>();

  @Before
  public void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        exchange -> {
          String uri = exchange.getRequestURI().toString();
          asked.add(uri);
          String body = answers.get(exchange.getRequestURI().getPath());
          byte[] bytes =
              (body == null ? "{\"RemoteException\":{\"message\":\"not found\"}}" : body)
                  .getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().set("Content-Type", "application/json");
          exchange.sendResponseHeaders(body == null ? 404 : 200, bytes.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
          }
        });
    server.start();
    record();
  }

  @After
  public void stop() {
    server.stop(0);
  }

  private String address() {
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  private static long at(double seconds) {
    return HistoryBuilder.at(seconds);
  }

  /** The answers for one stock job, timed as TestHistoryFiles' stock job. */
  private void record() {
    answers.put(
        API + "/jobs",
        "{\"jobs\":{\"job\":[{\"submitTime\":"
            + T0
            + ",\"startTime\":"
            + at(1)
            + ",\"finishTime\":"
            + at(32)
            + ",\"id\":\""
            + JOB
            + "\",\"name\":\"nightly etl\","
            + "\"queue\":\"default\",\"user\":\"alice\",\"state\":\"SUCCEEDED\",\"mapsTotal\":2,"
            + "\"mapsCompleted\":2,\"reducesTotal\":1,\"reducesCompleted\":1},"
            + "{\"submitTime\":"
            + T0
            + ",\"startTime\":"
            + at(1)
            + ",\"finishTime\":"
            + at(9)
            + ",\"id\":\"job_1700000000000_0002\",\"name\":\"adhoc\",\"queue\":\"default\","
            + "\"user\":\"alice\",\"state\":\"SUCCEEDED\",\"mapsTotal\":1,\"mapsCompleted\":1,"
            + "\"reducesTotal\":0,\"reducesCompleted\":0}]}}");
    answers.put(
        API + "/jobs/" + JOB,
        "{\"job\":{\"submitTime\":"
            + T0
            + ",\"startTime\":"
            + at(1)
            + ",\"finishTime\":"
            + at(32)
            + ",\"id\":\""
            + JOB
            + "\",\"name\":\"nightly etl\",\"queue\":\"default\","
            + "\"user\":\"alice\",\"state\":\"SUCCEEDED\",\"mapsTotal\":2,\"mapsCompleted\":2,"
            + "\"reducesTotal\":1,\"reducesCompleted\":1,\"uberized\":false,\"diagnostics\":\"\","
            + "\"avgMapTime\":8500,\"avgReduceTime\":9000,\"avgShuffleTime\":16000,"
            + "\"avgMergeTime\":1000,\"failedReduceAttempts\":0,\"killedReduceAttempts\":1,"
            + "\"successfulReduceAttempts\":1,\"failedMapAttempts\":1,\"killedMapAttempts\":0,"
            + "\"successfulMapAttempts\":2,\"acls\":[]}}");
    String m = "task_1700000000000_0001_m_00000";
    String r = "task_1700000000000_0001_r_000000";
    answers.put(
        API + "/jobs/" + JOB + "/tasks",
        "{\"tasks\":{\"task\":["
            + task(m + "0", "MAP", 2, 10)
            + ","
            + task(m + "1", "MAP", 3, 12)
            + ","
            + task(r, "REDUCE", 4, 30)
            + "]}}");
    String ok = "attempt_1700000000000_0001_r_000000_0";
    answers.put(
        API + "/jobs/" + JOB + "/tasks/" + r + "/attempts",
        "{\"taskAttempts\":{\"taskAttempt\":[{\"type\":\"REDUCE\",\"startTime\":"
            + at(4)
            + ",\"finishTime\":"
            + at(30)
            + ",\"elapsedTime\":26000,\"progress\":100,"
            + "\"id\":\""
            + ok
            + "\",\"rack\":\"/default-rack\",\"state\":\"SUCCEEDED\","
            + "\"nodeHttpAddress\":\"node2:8042\",\"diagnostics\":\"\","
            + "\"assignedContainerId\":\"container_1700000000000_0001_01_000004\","
            + "\"shuffleFinishTime\":"
            + at(20)
            + ",\"mergeFinishTime\":"
            + at(21)
            + ",\"elapsedShuffleTime\":16000,\"elapsedMergeTime\":1000,"
            + "\"elapsedReduceTime\":9000},{\"type\":\"REDUCE\",\"startTime\":"
            + at(14)
            + ",\"finishTime\":"
            + at(30)
            + ",\"id\":\"attempt_1700000000000_0001_r_000000_1\","
            + "\"state\":\"KILLED\",\"nodeHttpAddress\":\"node3:8042\",\"shuffleFinishTime\":0,"
            + "\"mergeFinishTime\":0}]}}");
    answers.put(
        API + "/jobs/" + JOB + "/tasks/" + r + "/attempts/" + ok + "/counters",
        "{\"jobTaskAttemptCounters\":{\"id\":\""
            + ok
            + "\",\"taskAttemptCounterGroup\":[{"
            + "\"counterGroupName\":\"org.apache.hadoop.mapreduce.TaskCounter\",\"counter\":["
            + "{\"name\":\"CPU_MILLISECONDS\",\"value\":12000},"
            + "{\"name\":\"REDUCE_SHUFFLE_BYTES\",\"value\":1048576}]}]}}");
    answers.put(
        API + "/jobs/" + JOB + "/counters",
        "{\"jobCounters\":{\"id\":\""
            + JOB
            + "\",\"counterGroup\":[{\"counterGroupName\":"
            + "\"org.apache.hadoop.mapreduce.TaskCounter\",\"counter\":[{\"name\":"
            + "\"CPU_MILLISECONDS\",\"totalCounterValue\":30000,\"mapCounterValue\":18000,"
            + "\"reduceCounterValue\":12000}]}]}}");
    answers.put(
        API + "/jobs/" + JOB + "/conf",
        "{\"conf\":{\"path\":\"hdfs://nn:8020/history/done/"
            + JOB
            + "_conf.xml\",\"property\":["
            + "{\"name\":\"mapreduce.job.combine.class\",\"value\":\"org.example.Comb\","
            + "\"source\":[\"job.xml\"]},{\"name\":\"dfs.replication\",\"value\":\"3\","
            + "\"source\":[\"hdfs-default.xml\"]}]}}");
  }

  private static String task(String id, String type, double start, double finish) {
    String attempt = id.replace("task_", "attempt_") + "_0";
    return "{\"progress\":100,\"elapsedTime\":"
        + Math.round((finish - start) * 1000)
        + ",\"state\":\"SUCCEEDED\",\"startTime\":"
        + at(start)
        + ",\"id\":\""
        + id
        + "\",\"type\":\""
        + type
        + "\",\"successfulAttempt\":\""
        + attempt
        + "\",\"finishTime\":"
        + at(finish)
        + "}";
  }

  @Test
  public void aJobFromTheServerGivesTheSameBreakdownAsItsHistoryFile() throws Exception {
    JobRun job = new HistoryServer("http://" + address()).job(JOB);
    Breakdown b = Breakdown.of(job);
    assertEquals(2, b.startup(), 1e-9);
    assertEquals(10, b.map(), 1e-9);
    assertEquals(8, b.exposedShuffle(), 1e-9);
    assertEquals(1, b.finalMerge(), 1e-9);
    assertEquals(9, b.finalReduce(), 1e-9);
    assertEquals(2, b.cleanup(), 1e-9);
    assertEquals(7, b.idleCpu(), 1e-9);
    assertEquals(1, job.failedAttempts());
    assertEquals(1, job.killedAttempts());
    assertEquals("node2", job.reduces().get(0).host());
    assertEquals(PartialReducer.Kind.COMBINER_COULD_SERVE, PartialReducer.of(job.conf()).kind());
    assertEquals("only the keys the advice reads", 1, job.conf().size());
  }

  /**
   * Hadoop 3.5's server (Jersey 2) writes a list of one item as the item alone, as a live 3.5.0
   * JobHistoryServer answers: a job list of one job, a task's one attempt, a counter group's one
   * counter.
   */
  @Test
  public void listsOfOneItemWrittenAsTheItemAloneAreRead() throws Exception {
    String jobs = answers.get(API + "/jobs");
    answers.put(
        API + "/jobs",
        jobs.substring(0, jobs.indexOf("},{\"submitTime\"")).replace("\"job\":[", "\"job\":")
            + "}}}");
    String attemptsPath = API + "/jobs/" + JOB + "/tasks/task_1700000000000_0001_r_000000/attempts";
    String attempts = answers.get(attemptsPath);
    answers.put(
        attemptsPath,
        attempts
                .substring(0, attempts.indexOf("},{\"type\""))
                .replace("\"taskAttempt\":[", "\"taskAttempt\":")
            + "}}}");
    String countersPath = API + "/jobs/" + JOB + "/counters";
    answers.put(
        countersPath,
        answers
            .get(countersPath)
            .replace("\"counter\":[{", "\"counter\":{")
            .replace("}]}]}}", "}}]}}"));
    ByteArrayOutput out = new ByteArrayOutput();
    ByteArrayOutput err = new ByteArrayOutput();
    int status =
        new MarcoAdvise(new Configuration())
            .run(
                new String[] {"--history-server", address(), "--json"}, out.stream(), err.stream());
    assertEquals(err.text(), MarcoAdvise.OK, status);
    JsonNode listed = new ObjectMapper().readTree(out.text()).get("jobs");
    assertEquals(out.text(), 1, listed.size());
    assertEquals(JOB, listed.get(0).get("id").asText());
    JobRun job = new HistoryServer("http://" + address()).job(JOB);
    assertEquals("the reduce's one attempt", 1, job.reduces().size());
    assertEquals(8, Breakdown.of(job).exposedShuffle(), 1e-9);
    assertEquals(
        30_000L, (long) job.counters().get(JobRun.TASK_GROUP + "." + JobRun.CPU_MILLISECONDS));
  }

  @Test
  public void theFiltersGoToTheServerAndTheNameIsMatchedHere() throws Exception {
    ByteArrayOutput out = new ByteArrayOutput();
    ByteArrayOutput err = new ByteArrayOutput();
    int status =
        new MarcoAdvise(new Configuration())
            .run(
                new String[] {
                  "--history-server",
                  address(),
                  "--user",
                  "alice",
                  "--from",
                  "2023-11-14",
                  "--to",
                  "1700000100000",
                  "--name",
                  "etl$",
                  "--json"
                },
                out.stream(),
                err.stream());
    assertEquals(err.text(), MarcoAdvise.OK, status);
    String list = asked.get(0);
    assertTrue(list, list.startsWith(API + "/jobs?limit=100&user=alice"));
    assertTrue(list, list.contains("&startedTimeBegin=1699920000000"));
    assertTrue(list, list.contains("&startedTimeEnd=1700000100000"));
    JsonNode json = new ObjectMapper().readTree(out.text());
    assertEquals(1, json.get("jobs").size());
    JsonNode job = json.get("jobs").get(0);
    assertEquals(JOB, job.get("id").asText());
    assertEquals("CPU-bound", job.get("predicted").get("bound").asText());
    assertEquals(32.0 / 25, job.get("predicted").get("speedup").asDouble(), 1e-9);
    assertEquals("combiner_could_serve", job.get("partial_reducer").get("kind").asText());
    assertTrue(
        job.get("recommendation").asText(),
        job.get("recommendation").asText().contains("use-combiner=true"));
  }

  @Test
  public void aMissingJobIsAnErrorNamingItsUrl() {
    answers.remove(API + "/jobs/" + JOB + "/tasks");
    ByteArrayOutput out = new ByteArrayOutput();
    ByteArrayOutput err = new ByteArrayOutput();
    int status =
        new MarcoAdvise(new Configuration())
            .run(new String[] {"--history-server", address()}, out.stream(), err.stream());
    assertEquals(MarcoAdvise.BAD_INPUT, status);
    assertTrue(err.text(), err.text().contains(API + "/jobs/" + JOB + "/tasks"));
    assertTrue(err.text(), err.text().contains("HTTP 404"));
  }
}
