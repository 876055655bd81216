/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.v2.app.rm;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.marco.stagger.EarlyReduceAdmission;
import org.apache.hadoop.mapreduce.marco.stagger.ReduceStaggering;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.client.ClientService;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.rm.preemption.AMPreemptionPolicy;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hadoop's RM container allocator plus reduce staggering for MaRCO jobs
 * ({@link ReduceStaggering}). Everything else (map scheduling, locality, blacklisting, reducer
 * preemption when maps starve, speculative and retried attempts, AM recovery) is Hadoop's own
 * code path; for jobs that are not staggered this class changes nothing.
 *
 * <p>The hooks, all on the allocator's heartbeat thread:
 * <ul>
 *   <li>{@link #scheduleReduces}: MaRCO jobs run with slow-start 0. Once the slow-start in
 *       force is reached and a map has completed, every early reduce the cap allows is asked for
 *       at once while maps hold containers ({@code mapreduce.marco.stagger.full.rampup});
 *       otherwise Hadoop's ramp-up sizes the asks in proportion to the maps completed.</li>
 *   <li>{@link #rampUpReduces} and {@link #scheduleAllReduces}: while maps run, reduce requests
 *       plus held reduce containers stay within k per cluster node, so the RM is not asked for
 *       containers the job would not use.</li>
 *   <li>{@link #makeRemoteRequest}: while maps run, a reduce container on a node that already
 *       holds k of the job's reduces is not given to a reduce. While a map waits for a container
 *       and the container is large enough for a map, it runs that map; otherwise it is released.
 *       Either way the job's reduce ask is re-sent, so the RM keeps offering the next room that
 *       appears to the reduce (the RM counted the withheld container as granted).</li>
 * </ul>
 * It lives in Hadoop's package because the allocator's request book-keeping it reads
 * ({@code getAssignedRequests()}, {@code getScheduledRequests()}, {@code PRIORITY_REDUCE}) is
 * package-private in Hadoop 3.5.0.
 */
@InterfaceAudience.Private
public class MarcoContainerAllocator extends RMContainerAllocator {
  private static final Logger LOG = LoggerFactory.getLogger(MarcoContainerAllocator.class);

  private ReduceStaggering staggering;
  private int clusterNodes;

  public MarcoContainerAllocator(
      ClientService clientService, AppContext context, AMPreemptionPolicy preemptionPolicy) {
    super(clientService, context, preemptionPolicy);
  }

  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    staggering = ReduceStaggering.forJob(conf);
    LOG.info("MaRCO AppMaster: {}", staggering);
    super.serviceInit(conf);
  }

  @Override
  protected AllocateResponse makeRemoteRequest() throws YarnException, IOException {
    AllocateResponse response = super.makeRemoteRequest();
    clusterNodes = response.getNumClusterNodes();
    if (limitingEarlyReduces()) {
      withholdReducesBeyondNodeLimit(response);
    }
    return response;
  }

  @Override
  public void scheduleReduces(
      int totalMaps,
      int completedMaps,
      int scheduledMaps,
      int scheduledReduces,
      int assignedMaps,
      int assignedReduces,
      Resource mapResourceReqt,
      Resource reduceResourceReqt,
      int numPendingReduces,
      float maxReduceRampupLimit,
      float reduceSlowStart) {
    float slowStart = staggering.slowStart(reduceSlowStart);
    // Only while maps hold containers: with none, Hadoop's ramp-down and reducer preemption must
    // be free to give reduce room to maps, and an ask re-sent here would take it back.
    if (limitingEarlyReduces()
        && assignedMaps > 0
        && staggering.asksForEveryEarlyReduce(completedMaps, totalMaps, slowStart)) {
      setIsReduceStarted(true);
      askUpToEarlyReduceCap(completedMaps, totalMaps, numPendingReduces);
    } else {
      super.scheduleReduces(
          totalMaps,
          completedMaps,
          scheduledMaps,
          scheduledReduces,
          assignedMaps,
          assignedReduces,
          mapResourceReqt,
          reduceResourceReqt,
          numPendingReduces,
          maxReduceRampupLimit,
          slowStart);
    }
    if (limitingEarlyReduces()) {
      // Ramp-ups respect the cap; this only acts when the cap shrank (a node was lost).
      int excess = -roomUnderEarlyReduceCap();
      if (excess > 0) {
        LOG.info("Reduce staggering: {} reduce requests back to pending while maps run", excess);
        rampDownReduces(Math.min(excess, getScheduledRequests().reduces.size()));
      }
    }
  }

  /**
   * Reduces outrank maps at the RM, so with an ask open for each node without its reduce, the
   * first room that frees up on such a node goes to its reduce.
   */
  private void askUpToEarlyReduceCap(int completedMaps, int totalMaps, int numPendingReduces) {
    int rampUp = Math.min(roomUnderEarlyReduceCap(), numPendingReduces);
    if (rampUp > 0) {
      LOG.info(
          "Reduce staggering: {} of {} maps completed, asking for {} more reduce(s) at once"
              + " ({} per node while maps run)",
          completedMaps,
          totalMaps,
          rampUp,
          staggering.reducesPerNode());
      rampUpReduces(rampUp);
    }
  }

  /** Hadoop schedules every pending reduce once all maps have containers; not while they run. */
  @Override
  public void scheduleAllReduces() {
    if (limitingEarlyReduces()) {
      rampUpReduces(getNumOfPendingReduces());
    } else {
      super.scheduleAllReduces();
    }
  }

  /** Hadoop's ramp-up, limited while maps run to k reduce requests and containers per node. */
  @Override
  public void rampUpReduces(int rampUp) {
    int allowed = rampUp;
    if (limitingEarlyReduces()) {
      allowed = Math.min(rampUp, Math.max(0, roomUnderEarlyReduceCap()));
    }
    super.rampUpReduces(allowed);
  }

  private boolean limitingEarlyReduces() {
    return staggering.isActive() && mapsRunning();
  }

  private boolean mapsRunning() {
    Job job = getJob();
    return job.getCompletedMaps() < job.getTotalMaps();
  }

  /** k per cluster node minus the reduce containers held and requested; negative if over. */
  private int roomUnderEarlyReduceCap() {
    return staggering.earlyReduceCap(clusterNodes)
        - getAssignedRequests().reduces.size()
        - getScheduledRequests().reduces.size();
  }

  /**
   * Reduces outrank maps at the RM, so while a reduce ask is open the RM offers it whatever room
   * appears first, also on nodes that already hold k of the job's reduces. Such a container
   * runs a waiting map instead, as the room would have without the reduce ask, though at the
   * reduce's size (a node that had room for two maps then starts one), and the ask stays open
   * for room on a node that may take a reduce.
   */
  private void withholdReducesBeyondNodeLimit(AllocateResponse response) {
    List<Container> allocated = response.getAllocatedContainers();
    List<Container> reduces = new ArrayList<>();
    int mapContainers = 0;
    for (Container container : allocated) {
      if (PRIORITY_REDUCE.equals(container.getPriority())) {
        reduces.add(container);
      } else {
        mapContainers++;
      }
    }
    if (reduces.isEmpty()) {
      return;
    }
    List<NodeId> heldNodes = new ArrayList<>();
    for (Container held : getAssignedRequests().reduces.values()) {
      heldNodes.add(held.getNodeId());
    }
    List<Container> withheld =
        EarlyReduceAdmission.decide(
                staggering.reducesPerNode(), heldNodes, reduces, Container::getNodeId)
            .withheld();
    if (withheld.isEmpty()) {
      return;
    }
    Set<Container> released = Collections.newSetFromMap(new IdentityHashMap<>());
    Collection<ContainerRequest> waitingMaps = getScheduledRequests().maps.values();
    int mapsWaiting = waitingMaps.size() - mapContainers;
    for (Container container : withheld) {
      if (mapsWaiting > 0 && fitsAMap(container, waitingMaps.iterator().next())) {
        mapsWaiting--;
        LOG.info(
            "Reduce staggering: {} on {} runs a waiting map: the node holds {} reduce(s) of this"
                + " job while maps run",
            container.getId(),
            container.getNodeId(),
            staggering.reducesPerNode());
        // Hadoop's assignment matches a container to a task by its priority.
        container.setPriority(PRIORITY_MAP);
      } else {
        LOG.info(
            "Reduce staggering: returning {} on {}: the node holds {} reduce(s) of this job while"
                + " maps run",
            container.getId(),
            container.getNodeId(),
            staggering.reducesPerNode());
        pendingRelease.add(container.getId());
        release(container.getId());
        released.add(container);
      }
    }
    if (!released.isEmpty()) {
      List<Container> kept = new ArrayList<>(allocated.size() - released.size());
      for (Container container : allocated) {
        if (!released.contains(container)) {
          kept.add(container);
        }
      }
      response.setAllocatedContainers(kept);
    }
    resendReduceAsk();
  }

  private boolean fitsAMap(Container container, ContainerRequest map) {
    return ResourceCalculatorUtils.computeAvailableContainers(
            container.getResource(), map.capability, getSchedulerResourceTypes())
        > 0;
  }

  /**
   * The RM lowered its count of the job's outstanding reduce containers for each one it granted;
   * re-sending the request (the ask carries an absolute count) restores the withheld ones.
   */
  private void resendReduceAsk() {
    Iterator<ContainerRequest> scheduled = getScheduledRequests().reduces.values().iterator();
    if (scheduled.hasNext()) {
      ContainerRequest request = scheduled.next();
      decContainerReq(request);
      addContainerReq(request);
    }
  }
}
