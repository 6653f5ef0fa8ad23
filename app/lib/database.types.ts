// Generated from the migrations by `npm run stack -- gen types` (stack/gen): don't edit; `npm run check:types` fails when it is out of date.
export type Json =
  | string
  | number
  | boolean
  | null
  | { [key: string]: Json | undefined }
  | Json[]

export type Database = {
  public: {
    Tables: {
      api_tokens: {
        Row: {
          aal: string
          created_at: string
          expires_at: string
          id: string
          last_used_at: string | null
          mode: string
          name: string
          prefix: string
          revoked_at: string | null
          team_id: string | null
          token_hash: string
          user_id: string
        }
        Insert: {
          aal: string
          created_at?: string
          expires_at: string
          id?: string
          last_used_at?: string | null
          mode: string
          name: string
          prefix: string
          revoked_at?: string | null
          team_id?: string | null
          token_hash: string
          user_id: string
        }
        Update: {
          aal?: string
          created_at?: string
          expires_at?: string
          id?: string
          last_used_at?: string | null
          mode?: string
          name?: string
          prefix?: string
          revoked_at?: string | null
          team_id?: string | null
          token_hash?: string
          user_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "api_tokens_team_id_fkey"
            columns: ["team_id"]
            isOneToOne: false
            referencedRelation: "teams"
            referencedColumns: ["id"]
          },
        ]
      }
      attachments: {
        Row: {
          content_type: string
          created_at: string
          file_name: string
          id: string
          object_path: string
          project_id: string
          size_bytes: number
          task_id: string
          uploaded_by: string | null
        }
        Insert: {
          content_type?: string
          created_at?: string
          file_name: string
          id?: string
          object_path: string
          project_id?: string
          size_bytes: number
          task_id: string
          uploaded_by?: string | null
        }
        Update: {
          content_type?: string
          created_at?: string
          file_name?: string
          id?: string
          object_path?: string
          project_id?: string
          size_bytes?: number
          task_id?: string
          uploaded_by?: string | null
        }
        Relationships: [
          {
            foreignKeyName: "attachments_task_id_fkey"
            columns: ["task_id"]
            isOneToOne: false
            referencedRelation: "tasks"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "attachments_uploaded_by_fkey"
            columns: ["uploaded_by"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
        ]
      }
      calendar_feeds: {
        Row: {
          created_at: string
          selector: string
          token_hash: string
          user_id: string
        }
        Insert: {
          created_at?: string
          selector: string
          token_hash: string
          user_id: string
        }
        Update: {
          created_at?: string
          selector?: string
          token_hash?: string
          user_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "calendar_feeds_user_id_fkey"
            columns: ["user_id"]
            isOneToOne: true
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
        ]
      }
      checklist_items: {
        Row: {
          created_at: string
          created_by: string | null
          done: boolean
          id: string
          position: number
          project_id: string
          task_id: string
          ticked_at: string | null
          ticked_by: string | null
          title: string
        }
        Insert: {
          created_at?: string
          created_by?: string | null
          done?: boolean
          id?: string
          position: number
          project_id: string
          task_id: string
          ticked_at?: string | null
          ticked_by?: string | null
          title: string
        }
        Update: {
          created_at?: string
          created_by?: string | null
          done?: boolean
          id?: string
          position?: number
          project_id?: string
          task_id?: string
          ticked_at?: string | null
          ticked_by?: string | null
          title?: string
        }
        Relationships: [
          {
            foreignKeyName: "checklist_items_created_by_fkey"
            columns: ["created_by"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "checklist_items_project_id_fkey"
            columns: ["project_id"]
            isOneToOne: false
            referencedRelation: "projects"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "checklist_items_task_id_fkey"
            columns: ["task_id"]
            isOneToOne: false
            referencedRelation: "tasks"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "checklist_items_ticked_by_fkey"
            columns: ["ticked_by"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
        ]
      }
      comments: {
        Row: {
          author_id: string | null
          body: string
          created_at: string
          edited_at: string | null
          id: string
          project_id: string
          task_id: string
        }
        Insert: {
          author_id?: string | null
          body: string
          created_at?: string
          edited_at?: string | null
          id?: string
          project_id?: string
          task_id: string
        }
        Update: {
          author_id?: string | null
          body?: string
          created_at?: string
          edited_at?: string | null
          id?: string
          project_id?: string
          task_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "comments_author_id_fkey"
            columns: ["author_id"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "comments_task_id_fkey"
            columns: ["task_id"]
            isOneToOne: false
            referencedRelation: "tasks"
            referencedColumns: ["id"]
          },
        ]
      }
      due_reminders: {
        Row: {
          created_at: string
          day: string
          due_on: string
          recipient_id: string
          task_id: string
        }
        Insert: {
          created_at?: string
          day: string
          due_on: string
          recipient_id: string
          task_id: string
        }
        Update: {
          created_at?: string
          day?: string
          due_on?: string
          recipient_id?: string
          task_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "due_reminders_recipient_id_fkey"
            columns: ["recipient_id"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "due_reminders_task_id_fkey"
            columns: ["task_id"]
            isOneToOne: false
            referencedRelation: "tasks"
            referencedColumns: ["id"]
          },
        ]
      }
      email_unsubscribe_tokens: {
        Row: {
          created_at: string
          kinds: string[]
          token_hash: string
          user_id: string
        }
        Insert: {
          created_at?: string
          kinds: string[]
          token_hash: string
          user_id: string
        }
        Update: {
          created_at?: string
          kinds?: string[]
          token_hash?: string
          user_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "email_unsubscribe_tokens_user_id_fkey"
            columns: ["user_id"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
        ]
      }
      field_options: {
        Row: {
          color: Database["public"]["Enums"]["palette_color"]
          created_at: string
          field_id: string
          id: string
          name: string
          position: number
          project_id: string
        }
        Insert: {
          color?: Database["public"]["Enums"]["palette_color"]
          created_at?: string
          field_id: string
          id?: string
          name: string
          position?: number
          project_id: string
        }
        Update: {
          color?: Database["public"]["Enums"]["palette_color"]
          created_at?: string
          field_id?: string
          id?: string
          name?: string
          position?: number
          project_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "field_options_field_id_fkey"
            columns: ["field_id"]
            isOneToOne: false
            referencedRelation: "fields"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "field_options_project_id_fkey"
            columns: ["project_id"]
            isOneToOne: false
            referencedRelation: "projects"
            referencedColumns: ["id"]
          },
        ]
      }
      field_values: {
        Row: {
          date_value: string | null
          field_id: string
          number_value: number | null
          option_ids: string[] | null
          person_id: string | null
          project_id: string
          task_id: string
          updated_at: string
          value: Json
        }
        Insert: {
          date_value?: string | null
          field_id: string
          number_value?: number | null
          option_ids?: string[] | null
          person_id?: string | null
          project_id: string
          task_id: string
          updated_at?: string
          value: Json
        }
        Update: {
          date_value?: string | null
          field_id?: string
          number_value?: number | null
          option_ids?: string[] | null
          person_id?: string | null
          project_id?: string
          task_id?: string
          updated_at?: string
          value?: Json
        }
        Relationships: [
          {
            foreignKeyName: "field_values_field_id_fkey"
            columns: ["field_id"]
            isOneToOne: false
            referencedRelation: "fields"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "field_values_person_id_fkey"
            columns: ["person_id"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "field_values_project_id_fkey"
            columns: ["project_id"]
            isOneToOne: false
            referencedRelation: "projects"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "field_values_task_id_fkey"
            columns: ["task_id"]
            isOneToOne: false
            referencedRelation: "tasks"
            referencedColumns: ["id"]
          },
        ]
      }
      fields: {
        Row: {
          created_at: string
          created_by: string | null
          id: string
          kind: Database["public"]["Enums"]["field_kind"]
          name: string
          number_decimals: number | null
          number_max: number | null
          number_min: number | null
          on_card: boolean
          position: number
          project_id: string
          sum: boolean
        }
        Insert: {
          created_at?: string
          created_by?: string | null
          id?: string
          kind: Database["public"]["Enums"]["field_kind"]
          name: string
          number_decimals?: number | null
          number_max?: number | null
          number_min?: number | null
          on_card?: boolean
          position?: number
          project_id: string
          sum?: boolean
        }
        Update: {
          created_at?: string
          created_by?: string | null
          id?: string
          kind?: Database["public"]["Enums"]["field_kind"]
          name?: string
          number_decimals?: number | null
          number_max?: number | null
          number_min?: number | null
          on_card?: boolean
          position?: number
          project_id?: string
          sum?: boolean
        }
        Relationships: [
          {
            foreignKeyName: "fields_created_by_fkey"
            columns: ["created_by"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "fields_project_id_fkey"
            columns: ["project_id"]
            isOneToOne: false
            referencedRelation: "projects"
            referencedColumns: ["id"]
          },
        ]
      }
      invitations: {
        Row: {
          accepted_at: string | null
          created_at: string
          email: string
          expires_at: string
          id: string
          invited_by: string | null
          project_ids: string[]
          revoked_at: string | null
          role: Database["public"]["Enums"]["team_role"]
          team_id: string
          token_hash: string
        }
        Insert: {
          accepted_at?: string | null
          created_at?: string
          email: string
          expires_at?: string
          id?: string
          invited_by?: string | null
          project_ids?: string[]
          revoked_at?: string | null
          role?: Database["public"]["Enums"]["team_role"]
          team_id: string
          token_hash: string
        }
        Update: {
          accepted_at?: string | null
          created_at?: string
          email?: string
          expires_at?: string
          id?: string
          invited_by?: string | null
          project_ids?: string[]
          revoked_at?: string | null
          role?: Database["public"]["Enums"]["team_role"]
          team_id?: string
          token_hash?: string
        }
        Relationships: [
          {
            foreignKeyName: "invitations_invited_by_fkey"
            columns: ["invited_by"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "invitations_team_id_fkey"
            columns: ["team_id"]
            isOneToOne: false
            referencedRelation: "teams"
            referencedColumns: ["id"]
          },
        ]
      }
      labels: {
        Row: {
          color: Database["public"]["Enums"]["palette_color"]
          created_at: string
          created_by: string | null
          id: string
          name: string
          team_id: string
        }
        Insert: {
          color?: Database["public"]["Enums"]["palette_color"]
          created_at?: string
          created_by?: string | null
          id?: string
          name: string
          team_id: string
        }
        Update: {
          color?: Database["public"]["Enums"]["palette_color"]
          created_at?: string
          created_by?: string | null
          id?: string
          name?: string
          team_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "labels_created_by_fkey"
            columns: ["created_by"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "labels_team_id_fkey"
            columns: ["team_id"]
            isOneToOne: false
            referencedRelation: "teams"
            referencedColumns: ["id"]
          },
        ]
      }
      mfa_recovery_codes: {
        Row: {
          code_hash: string
          created_at: string
          used_at: string | null
          user_id: string
        }
        Insert: {
          code_hash: string
          created_at?: string
          used_at?: string | null
          user_id: string
        }
        Update: {
          code_hash?: string
          created_at?: string
          used_at?: string | null
          user_id?: string
        }
        Relationships: []
      }
      notification_settings: {
        Row: {
          email: string
          kind: string
          updated_at: string
          user_id: string
        }
        Insert: {
          email: string
          kind: string
          updated_at?: string
          user_id?: string
        }
        Update: {
          email?: string
          kind?: string
          updated_at?: string
          user_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "notification_settings_user_id_fkey"
            columns: ["user_id"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
        ]
      }
      notifications: {
        Row: {
          actor_id: string | null
          comment_id: string | null
          created_at: string
          email: string
          email_attempts: number
          email_claim: string | null
          email_tried_at: string | null
          emailed_at: string | null
          event_id: string | null
          id: string
          kind: string
          read_at: string | null
          recipient_id: string
          task_id: string
          team_id: string
        }
        Insert: {
          actor_id?: string | null
          comment_id?: string | null
          created_at?: string
          email?: string
          email_attempts?: number
          email_claim?: string | null
          email_tried_at?: string | null
          emailed_at?: string | null
          event_id?: string | null
          id?: string
          kind: string
          read_at?: string | null
          recipient_id: string
          task_id: string
          team_id: string
        }
        Update: {
          actor_id?: string | null
          comment_id?: string | null
          created_at?: string
          email?: string
          email_attempts?: number
          email_claim?: string | null
          email_tried_at?: string | null
          emailed_at?: string | null
          event_id?: string | null
          id?: string
          kind?: string
          read_at?: string | null
          recipient_id?: string
          task_id?: string
          team_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "notifications_actor_id_fkey"
            columns: ["actor_id"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "notifications_comment_id_fkey"
            columns: ["comment_id"]
            isOneToOne: false
            referencedRelation: "comments"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "notifications_event_id_fkey"
            columns: ["event_id"]
            isOneToOne: false
            referencedRelation: "task_events"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "notifications_recipient_id_fkey"
            columns: ["recipient_id"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "notifications_task_id_fkey"
            columns: ["task_id"]
            isOneToOne: false
            referencedRelation: "tasks"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "notifications_team_id_fkey"
            columns: ["team_id"]
            isOneToOne: false
            referencedRelation: "teams"
            referencedColumns: ["id"]
          },
        ]
      }
      profiles: {
        Row: {
          avatar_path: string | null
          created_at: string
          display_name: string
          id: string
          theme: string
          time_zone: string
          updated_at: string
          username: string
        }
        Insert: {
          avatar_path?: string | null
          created_at?: string
          display_name: string
          id: string
          theme?: string
          time_zone?: string
          updated_at?: string
          username: string
        }
        Update: {
          avatar_path?: string | null
          created_at?: string
          display_name?: string
          id?: string
          theme?: string
          time_zone?: string
          updated_at?: string
          username?: string
        }
        Relationships: []
      }
      project_members: {
        Row: {
          added_by: string | null
          created_at: string
          project_id: string
          user_id: string
        }
        Insert: {
          added_by?: string | null
          created_at?: string
          project_id: string
          user_id: string
        }
        Update: {
          added_by?: string | null
          created_at?: string
          project_id?: string
          user_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "project_members_added_by_fkey"
            columns: ["added_by"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "project_members_project_id_fkey"
            columns: ["project_id"]
            isOneToOne: false
            referencedRelation: "projects"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "project_members_user_id_fkey"
            columns: ["user_id"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
        ]
      }
      project_statuses: {
        Row: {
          category: Database["public"]["Enums"]["status_category"]
          color: Database["public"]["Enums"]["palette_color"]
          created_at: string
          id: string
          name: string
          position: number
          project_id: string
          wip_limit: number | null
        }
        Insert: {
          category: Database["public"]["Enums"]["status_category"]
          color?: Database["public"]["Enums"]["palette_color"]
          created_at?: string
          id?: string
          name: string
          position: number
          project_id: string
          wip_limit?: number | null
        }
        Update: {
          category?: Database["public"]["Enums"]["status_category"]
          color?: Database["public"]["Enums"]["palette_color"]
          created_at?: string
          id?: string
          name?: string
          position?: number
          project_id?: string
          wip_limit?: number | null
        }
        Relationships: [
          {
            foreignKeyName: "project_statuses_project_id_fkey"
            columns: ["project_id"]
            isOneToOne: false
            referencedRelation: "projects"
            referencedColumns: ["id"]
          },
        ]
      }
      projects: {
        Row: {
          archived_at: string | null
          created_at: string
          description: string
          id: string
          key: string
          name: string
          next_task_number: number
          team_id: string
          visibility: string
        }
        Insert: {
          archived_at?: string | null
          created_at?: string
          description?: string
          id?: string
          key: string
          name: string
          next_task_number?: number
          team_id: string
          visibility?: string
        }
        Update: {
          archived_at?: string | null
          created_at?: string
          description?: string
          id?: string
          key?: string
          name?: string
          next_task_number?: number
          team_id?: string
          visibility?: string
        }
        Relationships: [
          {
            foreignKeyName: "projects_team_id_fkey"
            columns: ["team_id"]
            isOneToOne: false
            referencedRelation: "teams"
            referencedColumns: ["id"]
          },
        ]
      }
      saved_views: {
        Row: {
          created_at: string
          id: string
          kind: string
          name: string
          owner_id: string
          project_id: string
          query: string
          shared: boolean
          updated_at: string
        }
        Insert: {
          created_at?: string
          id?: string
          kind: string
          name: string
          owner_id?: string
          project_id: string
          query?: string
          shared?: boolean
          updated_at?: string
        }
        Update: {
          created_at?: string
          id?: string
          kind?: string
          name?: string
          owner_id?: string
          project_id?: string
          query?: string
          shared?: boolean
          updated_at?: string
        }
        Relationships: [
          {
            foreignKeyName: "saved_views_owner_id_fkey"
            columns: ["owner_id"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "saved_views_project_id_fkey"
            columns: ["project_id"]
            isOneToOne: false
            referencedRelation: "projects"
            referencedColumns: ["id"]
          },
        ]
      }
      security_events: {
        Row: {
          created_at: string
          detail: string
          id: number
          kind: string
          user_id: string
        }
        Insert: {
          created_at?: string
          detail?: string
          id?: never
          kind: string
          user_id: string
        }
        Update: {
          created_at?: string
          detail?: string
          id?: never
          kind?: string
          user_id?: string
        }
        Relationships: []
      }
      share_links: {
        Row: {
          created_at: string
          created_by: string | null
          field_ids: string[]
          id: string
          project_id: string
          revoked_at: string | null
          secret_hash: string
          show_comments: boolean
          view_id: string | null
        }
        Insert: {
          created_at?: string
          created_by?: string | null
          field_ids?: string[]
          id?: string
          project_id: string
          revoked_at?: string | null
          secret_hash: string
          show_comments?: boolean
          view_id?: string | null
        }
        Update: {
          created_at?: string
          created_by?: string | null
          field_ids?: string[]
          id?: string
          project_id?: string
          revoked_at?: string | null
          secret_hash?: string
          show_comments?: boolean
          view_id?: string | null
        }
        Relationships: [
          {
            foreignKeyName: "share_links_created_by_fkey"
            columns: ["created_by"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "share_links_project_id_fkey"
            columns: ["project_id"]
            isOneToOne: false
            referencedRelation: "projects"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "share_links_view_id_fkey"
            columns: ["view_id"]
            isOneToOne: false
            referencedRelation: "saved_views"
            referencedColumns: ["id"]
          },
        ]
      }
      storage_cleanup: {
        Row: { bucket_id: string; object_path: string; queued_at: string }
        Insert: { bucket_id: string; object_path: string; queued_at?: string }
        Update: { bucket_id?: string; object_path?: string; queued_at?: string }
        Relationships: []
      }
      task_assignees: {
        Row: {
          added_at: string
          person_id: string
          position: number
          project_id: string
          task_id: string
        }
        Insert: {
          added_at?: string
          person_id: string
          position?: number
          project_id: string
          task_id: string
        }
        Update: {
          added_at?: string
          person_id?: string
          position?: number
          project_id?: string
          task_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "task_assignees_person_id_fkey"
            columns: ["person_id"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "task_assignees_project_id_fkey"
            columns: ["project_id"]
            isOneToOne: false
            referencedRelation: "projects"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "task_assignees_task_id_fkey"
            columns: ["task_id"]
            isOneToOne: false
            referencedRelation: "tasks"
            referencedColumns: ["id"]
          },
        ]
      }
      task_events: {
        Row: {
          actor_id: string | null
          created_at: string
          data: Json
          id: string
          kind: string
          project_id: string
          task_id: string | null
          task_number: number | null
          task_title: string | null
          team_id: string
          tx: unknown
        }
        Insert: {
          actor_id?: string | null
          created_at?: string
          data?: Json
          id?: string
          kind: string
          project_id: string
          task_id?: string | null
          task_number?: number | null
          task_title?: string | null
          team_id: string
          tx?: unknown
        }
        Update: {
          actor_id?: string | null
          created_at?: string
          data?: Json
          id?: string
          kind?: string
          project_id?: string
          task_id?: string | null
          task_number?: number | null
          task_title?: string | null
          team_id?: string
          tx?: unknown
        }
        Relationships: [
          {
            foreignKeyName: "task_events_actor_id_fkey"
            columns: ["actor_id"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "task_events_project_id_fkey"
            columns: ["project_id"]
            isOneToOne: false
            referencedRelation: "projects"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "task_events_task_id_fkey"
            columns: ["task_id"]
            isOneToOne: false
            referencedRelation: "tasks"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "task_events_team_id_fkey"
            columns: ["team_id"]
            isOneToOne: false
            referencedRelation: "teams"
            referencedColumns: ["id"]
          },
        ]
      }
      task_labels: {
        Row: {
          created_at: string
          label_id: string
          project_id: string
          task_id: string
        }
        Insert: {
          created_at?: string
          label_id: string
          project_id: string
          task_id: string
        }
        Update: {
          created_at?: string
          label_id?: string
          project_id?: string
          task_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "task_labels_label_id_fkey"
            columns: ["label_id"]
            isOneToOne: false
            referencedRelation: "labels"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "task_labels_project_id_fkey"
            columns: ["project_id"]
            isOneToOne: false
            referencedRelation: "projects"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "task_labels_task_id_fkey"
            columns: ["task_id"]
            isOneToOne: false
            referencedRelation: "tasks"
            referencedColumns: ["id"]
          },
        ]
      }
      task_moves: {
        Row: {
          from_number: number
          from_project_id: string
          moved_at: string
          project_id: string
          task_id: string
        }
        Insert: {
          from_number: number
          from_project_id: string
          moved_at?: string
          project_id: string
          task_id: string
        }
        Update: {
          from_number?: number
          from_project_id?: string
          moved_at?: string
          project_id?: string
          task_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "task_moves_from_project_id_fkey"
            columns: ["from_project_id"]
            isOneToOne: false
            referencedRelation: "projects"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "task_moves_project_id_fkey"
            columns: ["project_id"]
            isOneToOne: false
            referencedRelation: "projects"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "task_moves_task_id_fkey"
            columns: ["task_id"]
            isOneToOne: false
            referencedRelation: "tasks"
            referencedColumns: ["id"]
          },
        ]
      }
      task_relations: {
        Row: {
          created_at: string
          created_by: string | null
          from_task_id: string
          id: string
          kind: Database["public"]["Enums"]["relation_kind"]
          team_id: string
          to_task_id: string
        }
        Insert: {
          created_at?: string
          created_by?: string | null
          from_task_id: string
          id?: string
          kind: Database["public"]["Enums"]["relation_kind"]
          team_id: string
          to_task_id: string
        }
        Update: {
          created_at?: string
          created_by?: string | null
          from_task_id?: string
          id?: string
          kind?: Database["public"]["Enums"]["relation_kind"]
          team_id?: string
          to_task_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "task_relations_created_by_fkey"
            columns: ["created_by"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "task_relations_from_task_id_fkey"
            columns: ["from_task_id"]
            isOneToOne: false
            referencedRelation: "tasks"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "task_relations_team_id_fkey"
            columns: ["team_id"]
            isOneToOne: false
            referencedRelation: "teams"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "task_relations_to_task_id_fkey"
            columns: ["to_task_id"]
            isOneToOne: false
            referencedRelation: "tasks"
            referencedColumns: ["id"]
          },
        ]
      }
      task_watchers: {
        Row: {
          project_id: string
          since: string
          task_id: string
          user_id: string
        }
        Insert: {
          project_id?: string
          since?: string
          task_id: string
          user_id: string
        }
        Update: {
          project_id?: string
          since?: string
          task_id?: string
          user_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "task_watchers_task_id_fkey"
            columns: ["task_id"]
            isOneToOne: false
            referencedRelation: "tasks"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "task_watchers_user_id_fkey"
            columns: ["user_id"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
        ]
      }
      tasks: {
        Row: {
          archived_at: string | null
          assignee_id: string | null
          assignee_ids: string[]
          attachment_count: number
          checklist_done: number
          checklist_total: number
          comment_count: number
          completed_at: string | null
          created_at: string
          created_by: string | null
          deleted_at: string | null
          deleted_by: string | null
          description: string
          due_at: string | null
          due_on: string | null
          due_on_set_at: string | null
          due_on_set_by: string | null
          due_time: string | null
          fields: Json
          id: string
          label_ids: string[]
          number: number
          open_blockers: number
          parent_id: string | null
          position: number
          priority: Database["public"]["Enums"]["task_priority"]
          project_id: string
          recurrence: string | null
          search: unknown | null
          start_on: string | null
          status_id: string
          subtasks_done: number
          subtasks_total: number
          successor_id: string | null
          title: string
          updated_at: string
        }
        Insert: {
          archived_at?: string | null
          assignee_id?: string | null
          assignee_ids?: string[]
          attachment_count?: number
          checklist_done?: number
          checklist_total?: number
          comment_count?: number
          completed_at?: string | null
          created_at?: string
          created_by?: string | null
          deleted_at?: string | null
          deleted_by?: string | null
          description?: string
          due_at?: string | null
          due_on?: string | null
          due_on_set_at?: string | null
          due_on_set_by?: string | null
          due_time?: string | null
          fields?: Json
          id?: string
          label_ids?: string[]
          number: number
          open_blockers?: number
          parent_id?: string | null
          position?: number
          priority?: Database["public"]["Enums"]["task_priority"]
          project_id: string
          recurrence?: string | null
          search?: unknown | null
          start_on?: string | null
          status_id: string
          subtasks_done?: number
          subtasks_total?: number
          successor_id?: string | null
          title: string
          updated_at?: string
        }
        Update: {
          archived_at?: string | null
          assignee_id?: string | null
          assignee_ids?: string[]
          attachment_count?: number
          checklist_done?: number
          checklist_total?: number
          comment_count?: number
          completed_at?: string | null
          created_at?: string
          created_by?: string | null
          deleted_at?: string | null
          deleted_by?: string | null
          description?: string
          due_at?: string | null
          due_on?: string | null
          due_on_set_at?: string | null
          due_on_set_by?: string | null
          due_time?: string | null
          fields?: Json
          id?: string
          label_ids?: string[]
          number?: number
          open_blockers?: number
          parent_id?: string | null
          position?: number
          priority?: Database["public"]["Enums"]["task_priority"]
          project_id?: string
          recurrence?: string | null
          search?: unknown | null
          start_on?: string | null
          status_id?: string
          subtasks_done?: number
          subtasks_total?: number
          successor_id?: string | null
          title?: string
          updated_at?: string
        }
        Relationships: [
          {
            foreignKeyName: "tasks_assignee_id_fkey"
            columns: ["assignee_id"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "tasks_created_by_fkey"
            columns: ["created_by"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "tasks_deleted_by_fkey"
            columns: ["deleted_by"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "tasks_due_on_set_by_fkey"
            columns: ["due_on_set_by"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "tasks_parent_in_project_fkey"
            columns: ["project_id", "parent_id"]
            isOneToOne: false
            referencedRelation: "tasks"
            referencedColumns: ["project_id", "id"]
          },
          {
            foreignKeyName: "tasks_project_id_fkey"
            columns: ["project_id"]
            isOneToOne: false
            referencedRelation: "projects"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "tasks_status_in_project_fkey"
            columns: ["project_id", "status_id"]
            isOneToOne: false
            referencedRelation: "project_statuses"
            referencedColumns: ["project_id", "id"]
          },
          {
            foreignKeyName: "tasks_successor_id_fkey"
            columns: ["successor_id"]
            isOneToOne: false
            referencedRelation: "tasks"
            referencedColumns: ["id"]
          },
        ]
      }
      team_members: {
        Row: {
          joined_at: string
          role: Database["public"]["Enums"]["team_role"]
          team_id: string
          user_id: string
        }
        Insert: {
          joined_at?: string
          role?: Database["public"]["Enums"]["team_role"]
          team_id: string
          user_id: string
        }
        Update: {
          joined_at?: string
          role?: Database["public"]["Enums"]["team_role"]
          team_id?: string
          user_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "team_members_team_id_fkey"
            columns: ["team_id"]
            isOneToOne: false
            referencedRelation: "teams"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "team_members_user_id_fkey"
            columns: ["user_id"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
        ]
      }
      teams: {
        Row: {
          created_at: string
          created_by: string | null
          id: string
          name: string
          slug: string
        }
        Insert: {
          created_at?: string
          created_by?: string | null
          id?: string
          name: string
          slug: string
        }
        Update: {
          created_at?: string
          created_by?: string | null
          id?: string
          name?: string
          slug?: string
        }
        Relationships: [
          {
            foreignKeyName: "teams_created_by_fkey"
            columns: ["created_by"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
        ]
      }
      webhook_allowed_hosts: {
        Row: { host: string; note: string }
        Insert: { host: string; note?: string }
        Update: { host?: string; note?: string }
        Relationships: []
      }
      webhook_deliveries: {
        Row: {
          attempt: number
          created_at: string
          duration_ms: number | null
          error: string | null
          event: string
          finished_at: string | null
          id: string
          message_id: string
          next_attempt_at: string | null
          payload: Json
          project_id: string
          request_id: number | null
          response_status: number | null
          sent_at: string | null
          status: string
          webhook_id: string
        }
        Insert: {
          attempt?: number
          created_at?: string
          duration_ms?: number | null
          error?: string | null
          event: string
          finished_at?: string | null
          id?: string
          message_id: string
          next_attempt_at?: string | null
          payload: Json
          project_id: string
          request_id?: number | null
          response_status?: number | null
          sent_at?: string | null
          status?: string
          webhook_id: string
        }
        Update: {
          attempt?: number
          created_at?: string
          duration_ms?: number | null
          error?: string | null
          event?: string
          finished_at?: string | null
          id?: string
          message_id?: string
          next_attempt_at?: string | null
          payload?: Json
          project_id?: string
          request_id?: number | null
          response_status?: number | null
          sent_at?: string | null
          status?: string
          webhook_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "webhook_deliveries_project_id_fkey"
            columns: ["project_id"]
            isOneToOne: false
            referencedRelation: "projects"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "webhook_deliveries_webhook_id_fkey"
            columns: ["webhook_id"]
            isOneToOne: false
            referencedRelation: "webhooks"
            referencedColumns: ["id"]
          },
        ]
      }
      webhooks: {
        Row: {
          created_at: string
          created_by: string | null
          disabled_at: string | null
          enabled: boolean
          events: string[]
          failures_in_row: number
          format: string
          id: string
          project_id: string
          retry_at: string | null
          secret_id: string
          url: string
        }
        Insert: {
          created_at?: string
          created_by?: string | null
          disabled_at?: string | null
          enabled?: boolean
          events: string[]
          failures_in_row?: number
          format?: string
          id?: string
          project_id: string
          retry_at?: string | null
          secret_id: string
          url: string
        }
        Update: {
          created_at?: string
          created_by?: string | null
          disabled_at?: string | null
          enabled?: boolean
          events?: string[]
          failures_in_row?: number
          format?: string
          id?: string
          project_id?: string
          retry_at?: string | null
          secret_id?: string
          url?: string
        }
        Relationships: [
          {
            foreignKeyName: "webhooks_created_by_fkey"
            columns: ["created_by"]
            isOneToOne: false
            referencedRelation: "profiles"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "webhooks_project_id_fkey"
            columns: ["project_id"]
            isOneToOne: false
            referencedRelation: "projects"
            referencedColumns: ["id"]
          },
        ]
      }
    }
    Views: { [_ in never]: never }
    Functions: {
      accept_invitation: {
        Args: { token: string }
        Returns: {
          created_at: string
          created_by: string | null
          id: string
          name: string
          slug: string
        }
      }
      api_token_exchange: { Args: { token_hash: string }; Returns: Json }
      archive_task: {
        Args: { task_id: string; archived?: boolean }
        Returns: {
          archived_at: string | null
          assignee_id: string | null
          assignee_ids: string[]
          attachment_count: number
          checklist_done: number
          checklist_total: number
          comment_count: number
          completed_at: string | null
          created_at: string
          created_by: string | null
          deleted_at: string | null
          deleted_by: string | null
          description: string
          due_at: string | null
          due_on: string | null
          due_on_set_at: string | null
          due_on_set_by: string | null
          due_time: string | null
          fields: Json
          id: string
          label_ids: string[]
          number: number
          open_blockers: number
          parent_id: string | null
          position: number
          priority: Database["public"]["Enums"]["task_priority"]
          project_id: string
          recurrence: string | null
          search: unknown | null
          start_on: string | null
          status_id: string
          subtasks_done: number
          subtasks_total: number
          successor_id: string | null
          title: string
          updated_at: string
        }
      }
      attachments_before_insert: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      attachments_record_change: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      base64url: { Args: { bytes: string }; Returns: string }
      board_view: {
        Args: {
          team_slug: string
          project_key: string
          assignee?: string
          label?: string
          q?: string
          limits?: Json
        }
        Returns: Json
      }
      bulk_edit_tasks: {
        Args: { task_ids: string[]; change: string; value?: string }
        Returns: number
      }
      calendar_feed: { Args: { token: string }; Returns: Json }
      check_team_has_one_owner: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      checklist_items_before_insert: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      checklist_items_before_update: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      checklist_items_close_gaps: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      checklist_items_record_change: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      checklist_items_sync_task: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      claim_notification_emails: {
        Args: { at?: string; batch_window?: unknown; max_batches?: number }
        Returns: Json
      }
      comments_mark_edited: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      comments_record_change: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      comments_webhooks: { Args: Record<PropertyKey, never>; Returns: unknown }
      create_api_token: {
        Args: {
          name: string
          team_id: string
          mode: string
          days: number
          token_hash: string
          prefix: string
        }
        Returns: string
      }
      create_task: {
        Args: { project_id: string; changes: Json }
        Returns: Json
      }
      create_team: {
        Args: { name: string; slug: string }
        Returns: {
          created_at: string
          created_by: string | null
          id: string
          name: string
          slug: string
        }
      }
      create_webhook: {
        Args: {
          project_id: string
          url: string
          events: string[]
          format: string
        }
        Returns: Json
      }
      day_of_month: { Args: { first: string; d: number }; Returns: string }
      decline_invitation: { Args: { token: string }; Returns: undefined }
      default_email_setting: { Args: { kind: string }; Returns: string }
      delete_webhook: { Args: { webhook_id: string }; Returns: undefined }
      digests_equal: { Args: { a: string; b: string }; Returns: boolean }
      duplicate_task: {
        Args: { task_id: string; target_project?: string; title?: string }
        Returns: Json
      }
      email_setting: { Args: { person: string; kind: string }; Returns: string }
      field_options_after_delete: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      field_options_before_insert: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      field_value_refused: {
        Args: {
          field: Database["public"]["Tables"]["fields"]["Row"]
          options?: string[]
        }
        Returns: undefined
      }
      field_value_words: {
        Args: { field_id: string; value: Json }
        Returns: string
      }
      field_values_after_write: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      field_values_before_write: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      fields_check_limits: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      finish_notification_emails: {
        Args: { sent_claims: string[]; failed_claims: string[] }
        Returns: number
      }
      handle_new_user: { Args: Record<PropertyKey, never>; Returns: unknown }
      handle_new_user_time_zone: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      handle_user_metadata_change: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      handle_user_time_zone_change: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      invitation_has_account: { Args: { token: string }; Returns: boolean }
      invitation_preview: {
        Args: { token: string }
        Returns: {
          team_name: string
          team_slug: string
          inviter_name: string
          role: Database["public"]["Enums"]["team_role"]
          email: string
          status: string
          expires_at: string
        }[]
      }
      invitations_stay_ended: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      is_recurrence: { Args: { rule: string }; Returns: boolean }
      is_time_zone: { Args: { name: string }; Returns: boolean }
      label_refs: { Args: { label_ids: string[] }; Returns: Json }
      labels_before_insert: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      last_digest_time: { Args: { at: string; zone: string }; Returns: string }
      leave_team: { Args: { team_id: string }; Returns: undefined }
      list_view: {
        Args: {
          team_slug: string
          project_key: string
          assignee?: string
          label?: string
          q?: string
          sort?: string
          group?: string
          page_offset?: number
          page_size?: number
          fields?: string
        }
        Returns: Json
      }
      lock_status_project: {
        Args: { status_id: string; min_role: string }
        Returns: string
      }
      mention_candidates: { Args: { body: string }; Returns: string[] }
      mentioned_members: {
        Args: { team_id: string; body: string }
        Returns: string[]
      }
      merge_task_changes: {
        Args: { earlier: Json; later: Json }
        Returns: Json
      }
      metadata_time_zone: { Args: { meta: Json }; Returns: string }
      move_checklist_item: {
        Args: { item_id: string; position: number }
        Returns: {
          created_at: string
          created_by: string | null
          done: boolean
          id: string
          position: number
          project_id: string
          task_id: string
          ticked_at: string | null
          ticked_by: string | null
          title: string
        }
      }
      move_status: {
        Args: { status_id: string; position: number }
        Returns: {
          category: Database["public"]["Enums"]["status_category"]
          color: Database["public"]["Enums"]["palette_color"]
          created_at: string
          id: string
          name: string
          position: number
          project_id: string
          wip_limit: number | null
        }
      }
      move_task: {
        Args: { task_id: string; status_id: string; position?: number }
        Returns: {
          archived_at: string | null
          assignee_id: string | null
          assignee_ids: string[]
          attachment_count: number
          checklist_done: number
          checklist_total: number
          comment_count: number
          completed_at: string | null
          created_at: string
          created_by: string | null
          deleted_at: string | null
          deleted_by: string | null
          description: string
          due_at: string | null
          due_on: string | null
          due_on_set_at: string | null
          due_on_set_by: string | null
          due_time: string | null
          fields: Json
          id: string
          label_ids: string[]
          number: number
          open_blockers: number
          parent_id: string | null
          position: number
          priority: Database["public"]["Enums"]["task_priority"]
          project_id: string
          recurrence: string | null
          search: unknown | null
          start_on: string | null
          status_id: string
          subtasks_done: number
          subtasks_total: number
          successor_id: string | null
          title: string
          updated_at: string
        }
      }
      move_task_to_project: {
        Args: {
          task_id: string
          target_project: string
          target_status?: string
        }
        Returns: Json
      }
      moved_task_address: {
        Args: { team_slug: string; project_key: string; task_number: number }
        Returns: Json
      }
      my_invitations: {
        Args: Record<PropertyKey, never>
        Returns: {
          id: string
          team_name: string
          inviter_name: string
          role: Database["public"]["Enums"]["team_role"]
          created_at: string
          expires_at: string
        }[]
      }
      my_work: {
        Args: {
          list: string
          sort?: string
          page_offset?: number
          page_size?: number
        }
        Returns: Json
      }
      new_recovery_codes: {
        Args: Record<PropertyKey, never>
        Returns: string[]
      }
      next_due_date: { Args: { rule: string; after: string }; Returns: string }
      notification_email_claimable: {
        Args: { n: Database["public"]["Tables"]["notifications"]["Row"] }
        Returns: boolean
      }
      notification_kinds: {
        Args: Record<PropertyKey, never>
        Returns: string[]
      }
      open_notification: { Args: { notification_id: string }; Returns: Json }
      person_time_zone: { Args: { person: string }; Returns: string }
      profiles_check_time_zone: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      project_statuses_before_insert: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      project_statuses_check_bounds: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      project_trash: {
        Args: { project_id: string }
        Returns: {
          id: string
          number: number
          title: string
          deleted_at: string
          deleted_by_name: string
          purge_on: string
        }[]
      }
      projects_after_insert: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      purge_task: { Args: { task_id: string }; Returns: number }
      queue_attachment_file_removal: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      queue_avatar_file_removal: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      queue_folder_removal: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      record_task_event: {
        Args: { task: string; kind: string; data: Json }
        Returns: undefined
      }
      recovery_code_hash: {
        Args: { person: string; code: string }
        Returns: string
      }
      recovery_codes_left: { Args: Record<PropertyKey, never>; Returns: number }
      redeem_recovery_code: { Args: { code: string }; Returns: boolean }
      remind_due_tasks: { Args: { run_at?: string }; Returns: number }
      remove_status: {
        Args: { status_id: string; move_to?: string }
        Returns: undefined
      }
      renumber_task_columns: {
        Args: { statuses: string[] }
        Returns: undefined
      }
      require_invited_address: { Args: { invited: string }; Returns: undefined }
      resend_webhook_delivery: {
        Args: { delivery_id: string }
        Returns: string
      }
      reset_calendar_feed: { Args: Record<PropertyKey, never>; Returns: string }
      restore_task: {
        Args: { task_id: string }
        Returns: {
          archived_at: string | null
          assignee_id: string | null
          assignee_ids: string[]
          attachment_count: number
          checklist_done: number
          checklist_total: number
          comment_count: number
          completed_at: string | null
          created_at: string
          created_by: string | null
          deleted_at: string | null
          deleted_by: string | null
          description: string
          due_at: string | null
          due_on: string | null
          due_on_set_at: string | null
          due_on_set_by: string | null
          due_time: string | null
          fields: Json
          id: string
          label_ids: string[]
          number: number
          open_blockers: number
          parent_id: string | null
          position: number
          priority: Database["public"]["Enums"]["task_priority"]
          project_id: string
          recurrence: string | null
          search: unknown | null
          start_on: string | null
          status_id: string
          subtasks_done: number
          subtasks_total: number
          successor_id: string | null
          title: string
          updated_at: string
        }
      }
      revoke_api_token: { Args: { token_id: string }; Returns: undefined }
      save_task: { Args: { task_id: string; changes: Json }; Returns: Json }
      saved_views_limit: { Args: Record<PropertyKey, never>; Returns: unknown }
      search_tasks: {
        Args: { query: string; limit?: number; archived?: boolean }
        Returns: {
          id: string
          project_id: string
          number: number
          title: string
          status_name: string
          status_color: Database["public"]["Enums"]["palette_color"]
          status_category: Database["public"]["Enums"]["status_category"]
          priority: Database["public"]["Enums"]["task_priority"]
          assignee_id: string
          due_on: string
          labels: string[]
          updated_at: string
          project_key: string
          project_name: string
          project_archived: boolean
          team_id: string
          team_slug: string
          team_name: string
          rank: number
        }[]
      }
      set_task_assignees: {
        Args: { task_id: string; people: string[] }
        Returns: string[]
      }
      set_task_field_values: {
        Args: { task_id: string; values: Json }
        Returns: Json
      }
      set_task_labels: {
        Args: { task_id: string; names: string[] }
        Returns: Json
      }
      set_updated_at: { Args: Record<PropertyKey, never>; Returns: unknown }
      shared_board: { Args: { secret: string }; Returns: Json }
      status_ref: { Args: { status_id: string }; Returns: Json }
      storage_folder_is_full: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      sync_mfa_enrolled: { Args: Record<PropertyKey, never>; Returns: unknown }
      sync_open_blockers: { Args: { tasks: string[] }; Returns: undefined }
      task_assignees_before_insert: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      task_assignees_sync_task: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      task_events_notify: { Args: Record<PropertyKey, never>; Returns: unknown }
      task_labels_before_insert: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      task_labels_sync_task: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      task_panel: {
        Args: {
          team_slug: string
          project_key: string
          task_number: number
          before_created_at?: string
          before_id?: string
          page_size?: number
        }
        Returns: Json
      }
      task_ref: { Args: { task_id: string }; Returns: Json }
      task_relations_before_insert: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      task_relations_record_change: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      task_relations_sync_tasks: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      task_table: {
        Args: {
          project_id?: string
          mine?: string
          assignee?: string
          label?: string
          q?: string
          sort?: string
          group?: string
          page_offset?: number
          page_size?: number
          fields?: string
        }
        Returns: Json
      }
      task_timeline: {
        Args: {
          task_id: string
          before_created_at?: string
          before_id?: string
          page_size?: number
        }
        Returns: Json
      }
      tasks_assignee_written: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      tasks_assignees_after_insert: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      tasks_assignees_before_insert: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      tasks_before_insert: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      tasks_check_assignee: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      tasks_check_parent: { Args: Record<PropertyKey, never>; Returns: unknown }
      tasks_close_gaps_after_delete: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      tasks_close_gaps_after_update: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      tasks_count_comments_and_attachments: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      tasks_note_due_on: { Args: Record<PropertyKey, never>; Returns: unknown }
      tasks_record_delete: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      tasks_record_insert: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      tasks_record_update: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      tasks_repeat: { Args: Record<PropertyKey, never>; Returns: unknown }
      tasks_set_completed_at: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      tasks_set_due_at: { Args: Record<PropertyKey, never>; Returns: unknown }
      tasks_sync_blocked: { Args: Record<PropertyKey, never>; Returns: unknown }
      tasks_sync_parent: { Args: Record<PropertyKey, never>; Returns: unknown }
      tasks_webhooks: { Args: Record<PropertyKey, never>; Returns: unknown }
      team_activity: {
        Args: {
          team_slug: string
          project_key?: string
          person?: string
          before_at?: string
          before_id?: string
          max_rows?: number
        }
        Returns: Json
      }
      team_has_member_email: {
        Args: { team_id: string; email: string }
        Returns: boolean
      }
      team_members_after_delete: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      team_members_forget_assignees: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      team_members_forget_field_values: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      team_members_forget_notifications: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      team_members_forget_watching: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      team_overview: { Args: { team_id: string }; Returns: Json }
      text_references: {
        Args: {
          team_slug: string
          task_keys?: string[]
          usernames?: string[]
          attachment_ids?: string[]
        }
        Returns: Json
      }
      transfer_ownership: {
        Args: { team_id: string; new_owner_id: string }
        Returns: undefined
      }
      trash_tasks: { Args: { task_ids: string[] }; Returns: number }
      unread_notification_count: {
        Args: Record<PropertyKey, never>
        Returns: number
      }
      unsubscribe_from_emails: { Args: { token: string }; Returns: Json }
      unsubscribe_link_status: { Args: { token: string }; Returns: Json }
      update_webhook: {
        Args: {
          webhook_id: string
          url: string
          events: string[]
          format: string
          enabled: boolean
        }
        Returns: undefined
      }
      watch_task: {
        Args: { task_id: string; people: string[] }
        Returns: undefined
      }
      webhook_backoff: { Args: { failures: number }; Returns: unknown }
      webhook_send: { Args: { delivery_id: string }; Returns: undefined }
      webhook_task_data: {
        Args: {
          t: Database["public"]["Tables"]["tasks"]["Row"]
          event: string
          extra?: Json
        }
        Returns: Json
      }
      webhook_url_problem: { Args: { url: string }; Returns: string }
      webhooks_enqueue: {
        Args: { project: string; event: string; data: Json }
        Returns: undefined
      }
      webhooks_forget_secret: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
      webhooks_tick: { Args: Record<PropertyKey, never>; Returns: undefined }
      webhooks_turned_off: {
        Args: Record<PropertyKey, never>
        Returns: unknown
      }
    }
    Enums: {
      field_kind:
        | "text"
        | "number"
        | "date"
        | "select"
        | "multi_select"
        | "checkbox"
        | "link"
        | "person"
      palette_color:
        | "gray"
        | "red"
        | "orange"
        | "yellow"
        | "green"
        | "teal"
        | "blue"
        | "indigo"
        | "purple"
        | "pink"
      relation_kind: "blocks" | "relates" | "duplicates"
      status_category:
        "backlog" | "unstarted" | "started" | "completed" | "canceled"
      task_priority: "none" | "low" | "medium" | "high" | "urgent"
      team_role: "guest" | "viewer" | "member" | "admin" | "owner"
    }
    CompositeTypes: { [_ in never]: never }
  }
}

type DefaultSchema = Database[Extract<keyof Database, "public">]

export type Tables<
  DefaultSchemaTableNameOrOptions extends
    | keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
    | { schema: keyof Database },
  TableName extends (DefaultSchemaTableNameOrOptions extends {
    schema: keyof Database
  }
    ? keyof (Database[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
        Database[DefaultSchemaTableNameOrOptions["schema"]]["Views"])
    : never) = never,
> = DefaultSchemaTableNameOrOptions extends { schema: keyof Database }
  ? (Database[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
      Database[DefaultSchemaTableNameOrOptions["schema"]]["Views"])[TableName] extends {
      Row: infer R
    }
    ? R
    : never
  : DefaultSchemaTableNameOrOptions extends keyof (DefaultSchema["Tables"] &
        DefaultSchema["Views"])
    ? (DefaultSchema["Tables"] &
        DefaultSchema["Views"])[DefaultSchemaTableNameOrOptions] extends {
        Row: infer R
      }
      ? R
      : never
    : never

export type TablesInsert<
  DefaultSchemaTableNameOrOptions extends
    keyof DefaultSchema["Tables"] | { schema: keyof Database },
  TableName extends (DefaultSchemaTableNameOrOptions extends {
    schema: keyof Database
  }
    ? keyof Database[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never) = never,
> = DefaultSchemaTableNameOrOptions extends { schema: keyof Database }
  ? Database[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Insert: infer I
    }
    ? I
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
    ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
        Insert: infer I
      }
      ? I
      : never
    : never

export type TablesUpdate<
  DefaultSchemaTableNameOrOptions extends
    keyof DefaultSchema["Tables"] | { schema: keyof Database },
  TableName extends (DefaultSchemaTableNameOrOptions extends {
    schema: keyof Database
  }
    ? keyof Database[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never) = never,
> = DefaultSchemaTableNameOrOptions extends { schema: keyof Database }
  ? Database[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Update: infer U
    }
    ? U
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
    ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
        Update: infer U
      }
      ? U
      : never
    : never

export type Enums<
  DefaultSchemaEnumNameOrOptions extends
    keyof DefaultSchema["Enums"] | { schema: keyof Database },
  EnumName extends (DefaultSchemaEnumNameOrOptions extends {
    schema: keyof Database
  }
    ? keyof Database[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"]
    : never) = never,
> = DefaultSchemaEnumNameOrOptions extends { schema: keyof Database }
  ? Database[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"][EnumName]
  : DefaultSchemaEnumNameOrOptions extends keyof DefaultSchema["Enums"]
    ? DefaultSchema["Enums"][DefaultSchemaEnumNameOrOptions]
    : never

export type CompositeTypes<
  PublicCompositeTypeNameOrOptions extends
    keyof DefaultSchema["CompositeTypes"] | { schema: keyof Database },
  CompositeTypeName extends (PublicCompositeTypeNameOrOptions extends {
    schema: keyof Database
  }
    ? keyof Database[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"]
    : never) = never,
> = PublicCompositeTypeNameOrOptions extends { schema: keyof Database }
  ? Database[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"][CompositeTypeName]
  : PublicCompositeTypeNameOrOptions extends keyof DefaultSchema["CompositeTypes"]
    ? DefaultSchema["CompositeTypes"][PublicCompositeTypeNameOrOptions]
    : never

export const Constants = {
  public: {
    Enums: {
      field_kind: [
        "text",
        "number",
        "date",
        "select",
        "multi_select",
        "checkbox",
        "link",
        "person",
      ],
      palette_color: [
        "gray",
        "red",
        "orange",
        "yellow",
        "green",
        "teal",
        "blue",
        "indigo",
        "purple",
        "pink",
      ],
      relation_kind: ["blocks", "relates", "duplicates"],
      status_category: [
        "backlog",
        "unstarted",
        "started",
        "completed",
        "canceled",
      ],
      task_priority: ["none", "low", "medium", "high", "urgent"],
      team_role: ["guest", "viewer", "member", "admin", "owner"],
    },
  },
} as const
