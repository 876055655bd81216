/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.v2.app.rm;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoJob;
import org.apache.hadoop.mapreduce.v2.api.records.JobId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.ClusterInfo;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.rm.preemption.NoopAMPreemptionPolicy;
import org.apache.hadoop.mapreduce.v2.util.MRBuilderUtils;
import org.apache.hadoop.yarn.api.ApplicationMasterProtocol;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateRequest;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.protocolrecords.FinishApplicationMasterRequest;
import org.apache.hadoop.yarn.api.protocolrecords.FinishApplicationMasterResponse;
import org.apache.hadoop.yarn.api.protocolrecords.RegisterApplicationMasterRequest;
import org.apache.hadoop.yarn.api.protocolrecords.RegisterApplicationMasterResponse;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.event.EventHandler;
import org.apache.hadoop.yarn.proto.YarnServiceProtos.SchedulerResourceTypes;
import org.apache.hadoop.yarn.util.Records;
import org.apache.hadoop.yarn.util.SystemClock;
import org.junit.After;
import org.junit.Test;

/**
 * {@link MarcoContainerAllocator} on fake allocator state: a fake RM answers each allocate call
 * with the containers, headroom and node count a test queues, and a fake job reports its map
 * progress. The tests call the hooks as the allocator's heartbeat does (allocate, then Hadoop's
 * reduce scheduling) for k &gt; 1 reduces per node, a reduce container withheld on a node that
 * holds its reduce running a waiting map (or going back to the RM when none waits or fits),
 * every early reduce asked for at once after the first completed map while maps hold containers
 * (and Hadoop's ramp-up with that switched off or with no map running), reduces ramped down when
 * maps lack room and up again within the cap, and a node lost while maps run.
 */
public class TestMarcoContainerAllocator {
  private static final int TOTAL_MAPS = 20;

  /** Headroom of a cluster with room for everything. */
  private static final int ROOMY = 64;

  private final ApplicationAttemptId attemptId =
      ApplicationAttemptId.newInstance(ApplicationId.newInstance(1, 1), 1);
  private final JobId jobId = MRBuilderUtils.newJobId(attemptId.getApplicationId(), 1);
  private final AtomicInteger completedMaps = new AtomicInteger();
  private final FakeRm rm = new FakeRm();
  private MarcoContainerAllocator allocator;
  private int containers;

  @After
  public void stop() {
    if (allocator != null) {
      allocator.setShouldUnregister(false);
      allocator.stop();
    }
  }

  @Test
  public void withTwoPerNodeEachNodeKeepsTwoReducesWhileMapsRunAndTheRestGoBack() throws Exception {
    start(marcoJob(2), 8);
    heartbeat(3, ROOMY);
    hold("n1");
    allocator.rampUpReduces(8);
    assertEquals("2 per node on 3 nodes, one held", 5, scheduledReduces());
    assertEquals(3, allocator.getNumOfPendingReduces());

    Container map = container("n1", RMContainerAllocator.PRIORITY_MAP);
    List<Container> reduces =
        List.of(reduce("n1"), reduce("n1"), reduce("n2"), reduce("n2"), reduce("n2"));
    AllocateResponse response =
        heartbeat(
            3,
            ROOMY,
            reduces.get(0),
            reduces.get(1),
            map,
            reduces.get(2),
            reduces.get(3),
            reduces.get(4));
    assertEquals(
        List.of(reduces.get(0), map, reduces.get(2), reduces.get(3)),
        response.getAllocatedContainers());

    heartbeat(3, ROOMY);
    AllocateRequest next = rm.lastRequest();
    assertEquals(ids(reduces.get(1), reduces.get(4)), new HashSet<>(next.getReleaseList()));
    assertTrue(allocator.pendingRelease.containsAll(next.getReleaseList()));
    assertEquals(
        "the reduce ask goes out again, so the RM offers other containers", 5, reduceAsk(next));
  }

  /**
   * n1 already holds the one reduce it may, and two maps wait. The RM offers the open reduce ask
   * the room that appeared on n1 (reduces outrank maps): that room runs a waiting map, as it would
   * have without the reduce ask, and the reduce ask stays open for room elsewhere.
   */
  @Test
  public void aReduceContainerOnANodeThatHoldsItsReduceRunsAWaitingMap() throws Exception {
    n1HoldsItsReduceWhileMapsWait(2, 1024);
    assertEquals("1 per node on 3 nodes, one held", 2, scheduledReduces());

    Container onN1 = reduce("n1");
    Container onN2 = reduce("n2");
    assertEquals(List.of(onN1, onN2), heartbeat(3, ROOMY, onN1, onN2).getAllocatedContainers());
    assertEquals(RMContainerAllocator.PRIORITY_MAP, onN1.getPriority());
    assertEquals(RMContainerAllocator.PRIORITY_REDUCE, onN2.getPriority());
    heartbeat(3, ROOMY);
    assertEquals(List.of(), rm.lastRequest().getReleaseList());
    assertEquals("the reduce ask goes out again", 2, reduceAsk(rm.lastRequest()));
    assertEquals(2, scheduledReduces());
  }

  /** Only as many withheld containers run maps as maps wait; the rest go back to the RM. */
  @Test
  public void withheldReduceContainersBeyondTheWaitingMapsAreReturned() throws Exception {
    n1HoldsItsReduceWhileMapsWait(1, 1024);

    Container first = reduce("n1");
    Container second = reduce("n1");
    assertEquals(List.of(first), heartbeat(3, ROOMY, first, second).getAllocatedContainers());
    assertEquals(RMContainerAllocator.PRIORITY_MAP, first.getPriority());
    heartbeat(3, ROOMY);
    assertEquals(ids(second), new HashSet<>(rm.lastRequest().getReleaseList()));
    assertEquals(2, reduceAsk(rm.lastRequest()));
  }

  /** A reduce container too small for a waiting map is returned, not given to the map. */
  @Test
  public void aWithheldReduceContainerTooSmallForAMapIsReturned() throws Exception {
    n1HoldsItsReduceWhileMapsWait(2, 2048);

    Container onN1 = reduce("n1");
    assertEquals(List.of(), heartbeat(3, ROOMY, onN1).getAllocatedContainers());
    heartbeat(3, ROOMY);
    assertEquals(ids(onN1), new HashSet<>(rm.lastRequest().getReleaseList()));
    assertEquals(2, reduceAsk(rm.lastRequest()));
  }

  @Test
  public void onceMapsAreDoneEveryReduceContainerIsKeptAndEveryReduceRequested() throws Exception {
    start(marcoJob(2), 8);
    heartbeat(3, ROOMY);
    completedMaps.set(TOTAL_MAPS);
    Container[] offered = {reduce("n1"), reduce("n1"), reduce("n1")};
    assertEquals(Arrays.asList(offered), heartbeat(3, ROOMY, offered).getAllocatedContainers());
    allocator.scheduleAllReduces();
    assertEquals(8, scheduledReduces());
    heartbeat(3, ROOMY);
    assertEquals(List.of(), rm.lastRequest().getReleaseList());
  }

  @Test
  public void reducesGoBackToPendingWhenMapsLackRoomAndReturnWithinTheCap() throws Exception {
    start(marcoJob(2), 12);
    heartbeat(4, ROOMY);
    scheduleReduces(4);
    assertEquals("k = 2 on 4 nodes, from the first map on", 8, scheduledReduces());

    // 16 maps wait and the cluster has room for 2 containers: Hadoop gives the room to maps.
    heartbeat(4, 2);
    scheduleReduces(16);
    assertEquals(0, scheduledReduces());
    assertEquals(12, allocator.getNumOfPendingReduces());

    heartbeat(4, ROOMY);
    scheduleReduces(4);
    assertEquals(8, scheduledReduces());
    assertEquals(4, allocator.getNumOfPendingReduces());
  }

  /**
   * One of 20 maps has completed and the cluster is full of maps: Hadoop's ramp-up would grant
   * reduces 5% of the job's room, less than one reduce. While maps hold containers, every early
   * reduce the cap allows is asked for at once, so each node's next free room goes to its reduce.
   */
  @Test
  public void onceAMapHasCompletedEveryEarlyReduceIsAskedForAtOnce() throws Exception {
    start(marcoJob(1), 6);
    heartbeat(4, 1);
    scheduleReduces(16, 8);
    assertEquals("no map has completed yet", 0, scheduledReduces());

    completedMaps.set(1);
    scheduleReduces(16, 8);
    assertEquals("1 per node on 4 nodes", 4, scheduledReduces());
    heartbeat(4, 1);
    assertEquals(4, reduceAsk(rm.lastRequest()));
    scheduleReduces(16, 8);
    assertEquals("and they stay asked for", 4, scheduledReduces());
  }

  @Test
  public void withoutTheFullRampUpHadoopsRampUpSizesTheEarlyReduceAsks() throws Exception {
    Configuration conf = marcoJob(1);
    conf.setBoolean(MarcoConfig.STAGGER_FULL_RAMPUP, false);
    start(conf, 6);
    heartbeat(4, 1);
    completedMaps.set(1);
    scheduleReduces(16, 8);
    assertEquals("5% of the job's room is less than one reduce", 0, scheduledReduces());
  }

  /** With no map holding a container, Hadoop's ramp-down gives the room to maps as before. */
  @Test
  public void withNoMapRunningHadoopsRampUpDecides() throws Exception {
    start(marcoJob(1), 6);
    heartbeat(4, ROOMY);
    completedMaps.set(1);
    scheduleReduces(4, 0);
    assertEquals(4, scheduledReduces());
    heartbeat(4, 2);
    scheduleReduces(16, 0);
    assertEquals(
        "maps lack room: Hadoop's ramp-down (it rounds towards zero) sends 3 of 4 asks back",
        1,
        scheduledReduces());
  }

  @Test
  public void aLostNodeSendsReduceRequestsBeyondTheSmallerCapBackToPending() throws Exception {
    start(marcoJob(1), 6);
    heartbeat(4, ROOMY);
    hold("n1");
    scheduleReduces(4);
    assertEquals(3, scheduledReduces());

    heartbeat(2, ROOMY);
    scheduleReduces(4);
    assertEquals("1 per node on the 2 nodes left, one held", 1, scheduledReduces());
    assertEquals(5, allocator.getNumOfPendingReduces());

    completedMaps.set(TOTAL_MAPS);
    allocator.scheduleAllReduces();
    assertEquals(6, scheduledReduces());
  }

  /**
   * Five NodeManagers, one of them kept for AppMasters: an early reduce ask beyond one per worker
   * could never be kept, and would take, at every heartbeat, room that maps wait for.
   */
  @Test
  public void aNodeThatRunsNoTasksGetsNoEarlyReduceAsk() throws Exception {
    Configuration conf = marcoJob(1);
    conf.setInt(MarcoConfig.STAGGER_NON_TASK_NODES, 1);
    start(conf, 8);
    heartbeat(5, ROOMY);
    scheduleReduces(4);
    assertEquals("one per node on the 4 workers", 4, scheduledReduces());
    assertEquals(4, allocator.getNumOfPendingReduces());
    heartbeat(5, ROOMY);
    assertEquals(4, reduceAsk(rm.lastRequest()));
  }

  @Test
  public void aStockJobGetsHadoopsRampUpWithoutACap() throws Exception {
    Configuration conf = new Configuration();
    MarcoJob.useStockShuffle(conf);
    start(conf, 8);
    heartbeat(1, ROOMY);
    allocator.rampUpReduces(8);
    assertEquals(8, scheduledReduces());
    Container[] offered = {reduce("n1"), reduce("n1")};
    assertEquals(Arrays.asList(offered), heartbeat(1, ROOMY, offered).getAllocatedContainers());
  }

  private static Configuration marcoJob(int reducesPerNode) {
    Configuration conf = new Configuration();
    MarcoJob.useMarcoShuffle(conf);
    conf.setInt(MarcoConfig.STAGGER_REDUCES_PER_NODE, reducesPerNode);
    return conf;
  }

  /** An allocator registered with the fake RM, with {@code reduces} reduce requests pending. */
  private void start(Configuration conf, int reduces) {
    Job job =
        fake(
            Job.class,
            (name, args) -> {
              switch (name) {
                case "getID":
                  return jobId;
                case "getTotalMaps":
                  return TOTAL_MAPS;
                case "getTotalReduces":
                  return reduces;
                case "getCompletedMaps":
                  return completedMaps.get();
                default:
                  return null;
              }
            });
    ClusterInfo clusterInfo = new ClusterInfo();
    EventHandler<?> ignoreEvents = event -> {};
    AppContext context =
        fake(
            AppContext.class,
            (name, args) -> {
              switch (name) {
                case "getApplicationID":
                  return attemptId.getApplicationId();
                case "getApplicationAttemptId":
                  return attemptId;
                case "getJob":
                  return job;
                case "getEventHandler":
                  return ignoreEvents;
                case "getClock":
                  return SystemClock.getInstance();
                case "getClusterInfo":
                  return clusterInfo;
                default:
                  return null;
              }
            });
    allocator =
        new MarcoContainerAllocator(null, context, new NoopAMPreemptionPolicy()) {
          @Override
          protected ApplicationMasterProtocol createSchedulerProxy() {
            return rm;
          }

          @Override
          protected void startAllocatorThread() {
            // The test calls the heartbeat's steps itself.
          }
        };
    allocator.init(conf);
    allocator.start();
    allocator.setMapResourceRequest(Resource.newInstance(1024, 1));
    allocator.setReduceResourceRequest(Resource.newInstance(1024, 1));
    for (int i = 0; i < reduces; i++) {
      allocator.handleEvent(
          new ContainerRequestEvent(
              reduceAttempt(i), Resource.newInstance(1024, 1), new String[0], new String[0]));
    }
  }

  /** One allocate call: the RM grants {@code allocated} and reports nodes and headroom. */
  private AllocateResponse heartbeat(int nodes, int headroomContainers, Container... allocated)
      throws Exception {
    return heartbeat(nodes, headroomContainers, allocated, new Container[0]);
  }

  /** As above, and the RM reports the containers {@code ended} as completed. */
  private AllocateResponse heartbeat(
      int nodes, int headroomContainers, Container[] allocated, Container... ended)
      throws Exception {
    rm.nextAnswer(
        nodes, Resource.newInstance(1024L * headroomContainers, headroomContainers), allocated);
    for (Container container : ended) {
      rm.complete(container);
    }
    return allocator.makeRemoteRequest();
  }

  /** Hadoop's reduce scheduling as the heartbeat calls it, with no map holding a container. */
  private void scheduleReduces(int scheduledMaps) {
    scheduleReduces(scheduledMaps, 0);
  }

  /**
   * As the heartbeat calls it, with {@code assignedMaps} maps holding containers and the job's
   * slow-start at 1 (MaRCO jobs run with 0 whatever it says).
   */
  private void scheduleReduces(int scheduledMaps, int assignedMaps) {
    allocator.scheduleReduces(
        TOTAL_MAPS,
        completedMaps.get(),
        scheduledMaps,
        scheduledReduces(),
        assignedMaps,
        allocator.getAssignedRequests().reduces.size(),
        Resource.newInstance(1024, 1),
        Resource.newInstance(1024, 1),
        allocator.getNumOfPendingReduces(),
        0.5f,
        1.0f);
  }

  private int scheduledReduces() {
    return allocator.getScheduledRequests().reduces.size();
  }

  /**
   * k = 1 on 3 nodes: n1 holds the job's reduce, {@code maps} maps of {@code mapMemoryMb} wait
   * for containers, and the other reduces are requested.
   */
  private void n1HoldsItsReduceWhileMapsWait(int maps, int mapMemoryMb) throws Exception {
    start(marcoJob(1), 4);
    allocator.setMapResourceRequest(Resource.newInstance(mapMemoryMb, 1));
    waitingMaps(maps);
    heartbeat(3, ROOMY);
    hold("n1");
    scheduleReduces(4);
  }

  /** Requests containers for {@code n} maps, which wait for them. */
  private void waitingMaps(int n) {
    for (int i = 0; i < n; i++) {
      TaskAttemptId map =
          MRBuilderUtils.newTaskAttemptId(MRBuilderUtils.newTaskId(jobId, i, TaskType.MAP), 0);
      allocator.handleEvent(
          new ContainerRequestEvent(
              map, Resource.newInstance(1024, 1), new String[0], new String[0]));
    }
  }

  /** The job holds a running reduce on {@code host}. */
  private void hold(String host) {
    allocator.getAssignedRequests().add(reduce(host), reduceAttempt(100 + containers));
  }

  private Container reduce(String host) {
    return container(host, RMContainerAllocator.PRIORITY_REDUCE);
  }

  private Container container(String host, Priority priority) {
    return Container.newInstance(
        ContainerId.newContainerId(attemptId, ++containers),
        NodeId.newInstance(host, 8041),
        host + ":8042",
        Resource.newInstance(1024, 1),
        priority,
        null);
  }

  private TaskAttemptId reduceAttempt(int task) {
    return MRBuilderUtils.newTaskAttemptId(
        MRBuilderUtils.newTaskId(jobId, task, TaskType.REDUCE), 0);
  }

  private static Set<ContainerId> ids(Container... containers) {
    Set<ContainerId> ids = new HashSet<>();
    for (Container c : containers) {
      ids.add(c.getId());
    }
    return ids;
  }

  /** Reduce containers the request asks for anywhere, or -1 when it does not ask. */
  private static int reduceAsk(AllocateRequest request) {
    for (ResourceRequest ask : request.getAskList()) {
      if (ask.getPriority().equals(RMContainerAllocator.PRIORITY_REDUCE)
          && ResourceRequest.ANY.equals(ask.getResourceName())) {
        return ask.getNumContainers();
      }
    }
    return -1;
  }

  /** How a fake answers a call: by method name and arguments. */
  private interface Answers {
    Object answer(String method, Object[] args);
  }

  /** An interface whose methods answer as given; unknown ones return null, 0 or false. */
  @SuppressWarnings("unchecked")
  private static <T> T fake(Class<T> type, Answers answers) {
    return (T)
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (proxy, method, args) -> {
              if (method.getDeclaringClass() == Object.class) {
                switch (method.getName()) {
                  case "equals":
                    return proxy == args[0];
                  case "hashCode":
                    return System.identityHashCode(proxy);
                  default:
                    return type.getSimpleName() + " fake";
                }
              }
              Object answer = answers.answer(method.getName(), args);
              if (answer != null || !method.getReturnType().isPrimitive()) {
                return answer;
              }
              Class<?> returns = method.getReturnType();
              return returns == boolean.class
                  ? false
                  : returns == void.class
                      ? null
                      : returns == float.class ? 0f : returns == long.class ? 0L : 0;
            });
  }

  /** The RM: answers each allocate call with what the test queued, and keeps the requests. */
  private static final class FakeRm implements ApplicationMasterProtocol {
    private final List<AllocateRequest> requests = new ArrayList<>();
    private int nodes;
    private Resource headroom = Resource.newInstance(0, 0);
    private List<Container> allocated = List.of();
    private final List<ContainerStatus> completed = new ArrayList<>();

    void complete(Container container) {
      completed.add(ContainerStatus.newInstance(container.getId(), ContainerState.COMPLETE, "", 0));
    }

    void nextAnswer(int clusterNodes, Resource available, Container... containers) {
      nodes = clusterNodes;
      headroom = available;
      allocated = List.of(containers);
    }

    AllocateRequest lastRequest() {
      return requests.get(requests.size() - 1);
    }

    @Override
    public RegisterApplicationMasterResponse registerApplicationMaster(
        RegisterApplicationMasterRequest request) {
      RegisterApplicationMasterResponse response =
          Records.newRecord(RegisterApplicationMasterResponse.class);
      response.setMaximumResourceCapability(Resource.newInstance(8192, 8));
      response.setQueue("default");
      response.setSchedulerResourceTypes(EnumSet.of(SchedulerResourceTypes.MEMORY));
      return response;
    }

    @Override
    public FinishApplicationMasterResponse finishApplicationMaster(
        FinishApplicationMasterRequest request) {
      return FinishApplicationMasterResponse.newInstance(true);
    }

    @Override
    public AllocateResponse allocate(AllocateRequest request) {
      requests.add(request);
      AllocateResponse response =
          AllocateResponse.newInstance(
              requests.size(),
              new ArrayList<>(completed),
              new ArrayList<>(allocated),
              new ArrayList<>(),
              headroom,
              null,
              nodes,
              null,
              new ArrayList<>());
      allocated = List.of();
      completed.clear();
      return response;
    }
  }
}
