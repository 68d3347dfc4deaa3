defmodule Shortener.Link do
  @moduledoc """
  A shortened link: a code and the URL it points to.
  """

  @enforce_keys [:code, :url]
  defstruct [:code, :url, hits: 0, inserted_at: nil]

  @type t :: %__MODULE__{code: String.t(), url: String.t(), hits: non_neg_integer()}
end

defmodule Shortener do
  @moduledoc """
  Creates and resolves short links.

  Links live in an Agent; restart it and they are gone.
  """

  use Agent
  alias Shortener.Link
  require Logger

  @alphabet ~c"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
  @code_length 7

  @doc "Starts the link store."
  def start_link(opts \\ []) do
    Agent.start_link(fn -> %{} end, Keyword.put_new(opts, :name, __MODULE__))
  end

  @doc """
  Shortens url and returns the new link.

  Fails unless url is an absolute http(s) URL.
  """
  @spec shorten(String.t()) :: {:ok, Link.t()} | {:error, :invalid_url}
  def shorten(url) when is_binary(url) do
    case URI.new(url) do
      {:ok, %URI{scheme: scheme, host: host}} when scheme in ["http", "https"] and host != nil ->
        link = %Link{code: generate_code(), url: url, inserted_at: DateTime.utc_now()}
        Agent.update(__MODULE__, &Map.put(&1, link.code, link))
        Logger.info("shortened #{url} as #{link.code}")
        {:ok, link}

      _ ->
        {:error, :invalid_url}
    end
  end

  @doc "Looks a code up and counts the hit."
  def resolve(code) do
    Agent.get_and_update(__MODULE__, fn links ->
      case Map.fetch(links, code) do
        {:ok, link} ->
          link = %{link | hits: link.hits + 1}
          {{:ok, link.url}, Map.put(links, code, link)}

        :error ->
          {{:error, :not_found}, links}
      end
    end)
  end

  @doc "The most visited links, most visited first."
  def top(n \\ 10) do
    __MODULE__
    |> Agent.get(&Map.values/1)
    |> Enum.sort_by(& &1.hits, :desc)
    |> Enum.take(n)
  end

  @doc "Deletes links not visited since cutoff."
  def prune(%DateTime{} = cutoff) do
    Agent.update(__MODULE__, fn links ->
      Map.reject(links, fn {_code, link} -> link.hits == 0 and DateTime.before?(link.inserted_at, cutoff) end)
    end)
  end

  def count, do: Agent.get(__MODULE__, &map_size/1)

  def delete(code), do: Agent.update(__MODULE__, &Map.delete(&1, code))

  defp generate_code do
    for _ <- 1..@code_length, into: "", do: <<Enum.random(@alphabet)>>
  end

  # Codes are random, so collisions are possible but rare; callers retry.
  defp unique_code(links, attempts \\ 3)
  defp unique_code(_links, 0), do: raise("could not find a free code")

  defp unique_code(links, attempts) do
    code = generate_code()
    if Map.has_key?(links, code), do: unique_code(links, attempts - 1), else: code
  end
end

defprotocol Shortener.Describable do
  @doc "A one-line description."
  def describe(value)
end

defimpl Shortener.Describable, for: Shortener.Link do
  def describe(link), do: "#{link.code} -> #{link.url} (#{link.hits} hits)"
end
