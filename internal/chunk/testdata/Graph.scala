package com.example.graph

import scala.collection.mutable
import scala.annotation.tailrec

/** A vertex identifier. */
type VertexId = Int

/** An edge with a non-negative weight. */
final case class Edge(from: VertexId, to: VertexId, weight: Double) {
  require(weight >= 0, s"negative weight $weight")
}

/** Something that can be traversed from a start vertex. */
trait Traversable {
  def neighbours(v: VertexId): Seq[VertexId]
  def vertices: Set[VertexId]
}

/**
 * A directed weighted graph stored as adjacency lists.
 *
 * Immutable: every update returns a new graph.
 */
class Graph private (private val adjacency: Map[VertexId, List[Edge]]) extends Traversable {

  val size: Int = adjacency.size

  def neighbours(v: VertexId): Seq[VertexId] =
    adjacency.getOrElse(v, Nil).map(_.to)

  def vertices: Set[VertexId] =
    adjacency.keySet ++ adjacency.values.flatten.map(_.to)

  /** Returns a graph with the edge added. */
  def addEdge(e: Edge): Graph =
    new Graph(adjacency.updated(e.from, e :: adjacency.getOrElse(e.from, Nil)))

  /** Breadth-first order of the vertices reachable from start. */
  def bfs(start: VertexId): List[VertexId] = {
    val seen = mutable.LinkedHashSet(start)
    val queue = mutable.Queue(start)
    while (queue.nonEmpty) {
      val v = queue.dequeue()
      for (n <- neighbours(v) if !seen(n)) {
        seen += n
        queue.enqueue(n)
      }
    }
    seen.toList
  }

  /**
   * Dijkstra's shortest distances from source.
   * Unreachable vertices are absent from the result.
   */
  def shortestPaths(source: VertexId): Map[VertexId, Double] = {
    val dist = mutable.Map(source -> 0.0)
    val queue = mutable.PriorityQueue((0.0, source))(Ordering.by(p => -p._1))
    while (queue.nonEmpty) {
      val (d, v) = queue.dequeue()
      if (d <= dist.getOrElse(v, Double.PositiveInfinity)) {
        for (e <- adjacency.getOrElse(v, Nil)) {
          val candidate = d + e.weight
          if (candidate < dist.getOrElse(e.to, Double.PositiveInfinity)) {
            dist(e.to) = candidate
            queue.enqueue((candidate, e.to))
          }
        }
      }
    }
    dist.toMap
  }

  /** Whether the graph has a cycle, by depth-first search. */
  def hasCycle: Boolean = {
    val state = mutable.Map.empty[VertexId, Int] // 1 = in progress, 2 = done
    def visit(v: VertexId): Boolean = state.get(v) match {
      case Some(1) => true
      case Some(_) => false
      case None =>
        state(v) = 1
        val found = neighbours(v).exists(visit)
        state(v) = 2
        found
    }
    vertices.exists(visit)
  }

  /** The same graph with every edge reversed. */
  def reverse: Graph =
    new Graph(adjacency.values.flatten.map(e => e.copy(from = e.to, to = e.from)).toList.groupBy(_.from))

  /** All edges, in no particular order. */
  def edges: List[Edge] = adjacency.values.flatten.toList

  /** Number of edges leaving v. */
  def outDegree(v: VertexId): Int = adjacency.getOrElse(v, Nil).size

  override def toString: String = s"Graph(${vertices.size} vertices, ${adjacency.values.map(_.size).sum} edges)"
}

object Graph {
  val empty: Graph = new Graph(Map.empty)

  /** Builds a graph from edges. */
  def apply(edges: Edge*): Graph = edges.foldLeft(empty)(_ addEdge _)

  @tailrec
  private def gcd(a: Int, b: Int): Int = if (b == 0) a else gcd(b, a % b)
}

enum Colour {
  case White, Grey, Black
}
