/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.v2.app.rm;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
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
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
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
 *   <li>{@link #scheduleReduces}: Hadoop's reduce ramp-up runs with slow-start 0, so reduces
 *       are requested from the first map on.</li>
 *   <li>{@link #rampUpReduces} and {@link #scheduleAllReduces}: while maps run, reduce requests
 *       plus held reduce containers stay within k per cluster node, so the RM is not asked for
 *       containers the job would not use, and none is added while early reduce asks are held
 *       back after a returned container.</li>
 *   <li>{@link #makeRemoteRequest}: while maps run, a reduce container on a node that already
 *       holds k of the job's reduces is released at once instead of being assigned, and the
 *       job's outstanding reduce ask is re-sent so the RM offers another container (the RM
 *       counted the returned one as granted); from the second such heartbeat in a row while a
 *       map waits for a container, the request goes back to pending instead, and the job asks
 *       for no further early reduce until one of its containers ends on a node that holds fewer
 *       than k, or every map has a container (see {@link #earlyReduceAsksHeld}).</li>
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

  /** Heartbeats in a row that handed back a reduce container and admitted none. */
  private int returnsInARow;

  /**
   * Set by the second heartbeat in a row that hands back a reduce container and admits none: the
   * RM offers a reduce ask on whichever node has room, and then only nodes that already hold k
   * reduces have any. Asked for again at once, the reduce would come back to them at every
   * heartbeat, and since reduces outrank maps at the RM, their room would go to no map while maps
   * wait. Only set while a map waits for a container. Cleared when one of the job's containers
   * ends on a node that holds fewer than k of its reduces, where room for a reduce then appears,
   * when every map has a container, and when the maps are done. (A single
   * return, as when the RM puts two reduces on the first node that asks, is asked for again at
   * once: the other nodes still have room.)
   */
  private boolean earlyReduceAsksHeld;

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
      releaseHeldAsksOnRoom(response);
      releaseHeldAsksWhenNoMapWaits();
      returnReducesBeyondNodeLimit(response);
    } else {
      // A map re-executed after the map phase starts a new one, without an old hold.
      earlyReduceAsksHeld = false;
      returnsInARow = 0;
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
        staggering.slowStart(reduceSlowStart));
    if (limitingEarlyReduces()) {
      // Ramp-ups below respect the cap; this only acts when the cap shrank (a node was lost).
      int excess = -roomUnderEarlyReduceCap();
      if (excess > 0) {
        LOG.info("Reduce staggering: {} reduce requests back to pending while maps run", excess);
        rampDownReduces(Math.min(excess, getScheduledRequests().reduces.size()));
      }
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
      allowed = earlyReduceAsksHeld ? 0 : Math.min(rampUp, Math.max(0, roomUnderEarlyReduceCap()));
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

  private void returnReducesBeyondNodeLimit(AllocateResponse response) {
    List<Container> allocated = response.getAllocatedContainers();
    List<Container> reduces = new ArrayList<>();
    for (Container container : allocated) {
      if (PRIORITY_REDUCE.equals(container.getPriority())) {
        reduces.add(container);
      }
    }
    if (reduces.isEmpty()) {
      return;
    }
    List<NodeId> heldNodes = new ArrayList<>();
    for (Container held : getAssignedRequests().reduces.values()) {
      heldNodes.add(held.getNodeId());
    }
    EarlyReduceAdmission<Container> admission =
        EarlyReduceAdmission.decide(
            staggering.reducesPerNode(), heldNodes, reduces, Container::getNodeId);
    if (!admission.admitted().isEmpty()) {
      returnsInARow = 0;
    }
    if (admission.withheld().isEmpty()) {
      return;
    }
    Set<Container> withheld = Collections.newSetFromMap(new IdentityHashMap<>());
    withheld.addAll(admission.withheld());
    for (Container container : withheld) {
      LOG.info(
          "Reduce staggering: returning {} on {}: the node holds {} reduce(s) of this job while"
              + " maps run",
          container.getId(),
          container.getNodeId(),
          staggering.reducesPerNode());
      pendingRelease.add(container.getId());
      release(container.getId());
    }
    List<Container> kept = new ArrayList<>(allocated.size() - withheld.size());
    for (Container container : allocated) {
      if (!withheld.contains(container)) {
        kept.add(container);
      }
    }
    response.setAllocatedContainers(kept);
    if (++returnsInARow < 2 || !mapsWaitForRoom()) {
      resendReduceAsk();
      return;
    }
    // The RM counted the returned containers as granted: their requests go back to pending, which
    // leaves the RM's count as it is, and wait for room on a node that may take them.
    rampDownReduces(Math.min(withheld.size(), getScheduledRequests().reduces.size()));
    if (!earlyReduceAsksHeld) {
      LOG.info(
          "Reduce staggering: no further early reduce is asked for until one of the job's"
              + " containers ends on a node with fewer than {} of its reduces",
          staggering.reducesPerNode());
    }
    earlyReduceAsksHeld = true;
  }

  /**
   * The RM lowered its count of the job's outstanding reduce containers for each one it granted;
   * re-sending the request (the ask carries an absolute count) restores the returned ones.
   */
  private void resendReduceAsk() {
    Iterator<ContainerRequest> scheduled = getScheduledRequests().reduces.values().iterator();
    if (scheduled.hasNext()) {
      ContainerRequest request = scheduled.next();
      decContainerReq(request);
      addContainerReq(request);
    }
  }

  /**
   * A map request waits for a container: room handed back for a reduce could run it. Once every
   * map has a container, a returned reduce container costs no map anything, and the RM may well
   * have room for the reduce on a node that holds none without any container ending there (a
   * node with room for a reduce beside its maps).
   */
  private boolean mapsWaitForRoom() {
    return !getScheduledRequests().maps.isEmpty();
  }

  /** Lifts {@link #earlyReduceAsksHeld} once no map waits for a container. */
  private void releaseHeldAsksWhenNoMapWaits() {
    if (earlyReduceAsksHeld && !mapsWaitForRoom()) {
      LOG.info("Reduce staggering: every map has a container: early reduces are asked for again");
      earlyReduceAsksHeld = false;
      returnsInARow = 0;
    }
  }

  /**
   * Lifts {@link #earlyReduceAsksHeld} when one of the job's containers has ended on a node that
   * now holds fewer than k of its reduces: that node has room a reduce may take.
   */
  private void releaseHeldAsksOnRoom(AllocateResponse response) {
    if (!earlyReduceAsksHeld || response.getCompletedContainersStatuses().isEmpty()) {
      return;
    }
    Set<ContainerId> ended = new HashSet<>();
    for (ContainerStatus status : response.getCompletedContainersStatuses()) {
      ended.add(status.getContainerId());
    }
    Map<NodeId, Integer> reducesHeld = new HashMap<>();
    for (Container reduce : getAssignedRequests().reduces.values()) {
      if (!ended.contains(reduce.getId())) {
        reducesHeld.merge(reduce.getNodeId(), 1, Integer::sum);
      }
    }
    List<Container> ours = new ArrayList<>(getAssignedRequests().maps.values());
    ours.addAll(getAssignedRequests().reduces.values());
    for (Container container : ours) {
      NodeId node = container.getNodeId();
      if (ended.contains(container.getId())
          && reducesHeld.getOrDefault(node, 0) < staggering.reducesPerNode()) {
        LOG.info(
            "Reduce staggering: {} ended on {}, which may take a reduce: early reduces are asked"
                + " for again",
            container.getId(),
            node);
        earlyReduceAsksHeld = false;
        returnsInARow = 0;
        return;
      }
    }
  }
}
