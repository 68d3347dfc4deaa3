import React, { useCallback, useMemo, useState } from "react";

export interface Todo {
  id: number;
  title: string;
  done: boolean;
}

type Filter = "all" | "active" | "done";

/** Props of TodoItem. */
interface TodoItemProps {
  todo: Todo;
  onToggle: (id: number) => void;
}

/** One row of the list. */
export function TodoItem({ todo, onToggle }: TodoItemProps) {
  return (
    <li className={todo.done ? "done" : ""}>
      <input type="checkbox" checked={todo.done} onChange={() => onToggle(todo.id)} />
      {todo.title}
    </li>
  );
}

export const FilterBar = ({ value, onChange }: { value: Filter; onChange: (f: Filter) => void }) => (
  <nav>
    {(["all", "active", "done"] as Filter[]).map((f) => (
      <button key={f} disabled={f === value} onClick={() => onChange(f)}>
        {f}
      </button>
    ))}
  </nav>
);

interface State {
  todos: Todo[];
  filter: Filter;
  draft: string;
  error: string | null;
}

/**
 * The todo list page. A class component so that it can catch render errors
 * of its children.
 */
export default class TodoList extends React.Component<{ initial?: Todo[] }, State> {
  state: State = { todos: this.props.initial ?? [], filter: "all", draft: "", error: null };

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error: error.message };
  }

  /** Adds the draft as a new todo. */
  add = () => {
    const title = this.state.draft.trim();
    if (!title) {
      return;
    }
    this.setState((s) => ({
      todos: [...s.todos, { id: Date.now(), title, done: false }],
      draft: "",
    }));
  };

  toggle = (id: number) => {
    this.setState((s) => ({
      todos: s.todos.map((t) => (t.id === id ? { ...t, done: !t.done } : t)),
    }));
  };

  /** Removes the finished todos. */
  clearDone = () => {
    this.setState((s) => ({ todos: s.todos.filter((t) => !t.done) }));
  };

  componentDidUpdate(_: unknown, prev: State) {
    if (prev.todos !== this.state.todos) {
      try {
        localStorage.setItem("todos", JSON.stringify(this.state.todos));
      } catch {
        // Storage may be full or disabled; the list still works.
      }
    }
  }

  get remaining(): number {
    return this.state.todos.filter((t) => !t.done).length;
  }

  visible(): Todo[] {
    const { todos, filter } = this.state;
    switch (filter) {
      case "active":
        return todos.filter((t) => !t.done);
      case "done":
        return todos.filter((t) => t.done);
      default:
        return todos;
    }
  }

  render() {
    if (this.state.error) {
      return <p role="alert">Something went wrong: {this.state.error}</p>;
    }
    const items = this.visible();
    return (
      <section>
        <h1>Todos ({items.length})</h1>
        <FilterBar value={this.state.filter} onChange={(filter) => this.setState({ filter })} />
        <ul>
          {items.map((t) => (
            <TodoItem key={t.id} todo={t} onToggle={this.toggle} />
          ))}
        </ul>
        <input
          value={this.state.draft}
          onChange={(e) => this.setState({ draft: e.target.value })}
          onKeyDown={(e) => e.key === "Enter" && this.add()}
        />
        <button onClick={this.add}>Add</button>
      </section>
    );
  }
}

/** Counts the todos left to do. */
export function useRemaining(todos: Todo[]): number {
  return useMemo(() => todos.filter((t) => !t.done).length, [todos]);
}
